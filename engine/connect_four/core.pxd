from libc.stdint cimport uint64_t, uint8_t, int8_t

cdef enum:
    C4_ROWS = 6
    C4_COLS = 7
    C4_STRIDE = 7          # bits per column: 6 cells + one empty sentinel bit
    C4_NOBODY = -1
    C4_DRAW = 2

# Connect Four state as two bitboards (one per player). Bit col*7 + row is the
# cell in column `col`, row `row` counted from the bottom; bit 6 of every
# column stays 0 so that shifted win checks cannot wrap between columns.
cdef struct C4StateC:
    uint64_t bits[2]       # cells owned by player 0 ('x') and player 1 ('o')
    uint8_t height[7]      # stones in each column
    int8_t player          # player to move (0 or 1)
    int8_t winner          # C4_NOBODY, 0, 1, or C4_DRAW
    uint8_t moves          # stones on the board
