"""The AI in the browser game: its moves, hints and engine reviews, worked out in worker processes."""
