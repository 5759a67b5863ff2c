"""The web app's HTTP side: routes, sockets, the front door's checks, pages and running it with uvicorn."""
