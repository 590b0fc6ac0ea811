"""The contract's player ids for Python code (mirrors engine/contract.pxd)."""
PLAYER_CHANCE = -1
PLAYER_TERMINAL = -4
