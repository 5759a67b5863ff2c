"""What happens without a request: each game's state sent to the sockets watching it, and flags falling on time."""
