# Owners of C game instances and states: the Python face of every Cython core.
from easel.engine.contract cimport GameC


cdef class CoreGame:
    cdef GameC c                # facts and rule table; c.params points into _params
    cdef bytes _params          # the parameter block (kept alive here)
    cdef int* _actions          # scratch for legal actions (GIL held when used)
    cdef int* _outcomes         # scratch for chance outcome ids
    cdef double* _probs         # scratch for chance probabilities
    cdef public object game     # the engine.game.Game this core belongs to
    cdef public object hooks    # the game module: state_to_json(core, raw) etc.


cdef class CoreState:
    cdef CoreGame core
    cdef char* buf              # state_size bytes
    cdef list _history          # every action and chance outcome applied
    cdef int _decisions         # decisions taken (for max_game_length)
    cdef public object _origin  # JSON view the history starts from; None: the initial state
    cdef public object _move_base   # move number of the origin; None when unknown

    cdef inline void* ptr(self) noexcept:
        return <void*> self.buf
