"""The games as players see them, without HTTP or SQL: sessions, what players do, who may do it, clocks, the game
list, set-up positions and the analysis board."""
