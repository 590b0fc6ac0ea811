from libc.stdint cimport int32_t, int8_t

cdef enum:
    PIG_MAX_PLAYERS = 10
    PIG_ROLL = 0
    PIG_STOP = 1

cdef struct PigParamsC:
    int players             # number of players
    int horizon             # decisions after which the game stops undecided
    int win_score           # score that ends the game
    int dice_outcomes       # faces of the die
    bint piglet             # piglet variant: a roll is "1" or "not 1" (worth 1)
    double p_one            # probability of rolling a 1

cdef struct PigStateC:
    int32_t scores[10]      # banked score per player
    int32_t turn_total      # points at risk in the current turn
    int32_t total_moves     # decisions taken so far (OpenSpiel's horizon counter)
    int8_t cur_player       # player to decide, or PLAYER_CHANCE while the die rolls
    int8_t turn_player      # whose turn it is
    int8_t over             # 1 once somebody reached win_score or the horizon passed
