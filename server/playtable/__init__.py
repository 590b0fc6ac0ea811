"""A person at `easel play`: the table they see (display.py and one module
per game), how what they type is read (moves.py, prompt.py) and the local
game, with its take-backs (local.py). The command itself, and the hosted
match, are server/commands/play.py."""
