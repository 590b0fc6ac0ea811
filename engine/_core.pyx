"""Generic owners for Cython game cores.

CoreGame holds one GameC (facts + rule table) and its parameter block;
CoreState holds one fixed-size state buffer. Every game core hands its GameC
to CoreGame, and the whole Python face (legal actions, apply with validation,
clone, serialization, JSON, text) is written once here. Text and JSON are
delegated to the game module's Python hooks, which the reference
implementation shares, so both read and write actions identically.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp, memset

from easel.engine.contract cimport FactsC, GameC, PLAYER_CHANCE, PLAYER_TERMINAL, MAX_PLAYERS

from dataclasses import asdict

from easel.engine import textio
from easel.engine.errors import IllegalActionError
from easel.engine.kit import GameFacts


cdef class CoreGame:
    def __cinit__(self):
        self._actions = NULL
        self._outcomes = NULL
        self._probs = NULL

    def __dealloc__(self):
        free(self._actions)
        free(self._outcomes)
        free(self._probs)

    @staticmethod
    def from_facts(facts):
        """A CoreGame whose GameC holds the game's facts (a kit.GameFacts) and no
        rule functions yet: the optional ones stay NULL, so a core sets only
        the functions it has."""
        cdef CoreGame core = CoreGame.__new__(CoreGame)
        memset(&core.c, 0, sizeof(GameC))
        core.c.facts = asdict(facts)        # field by field, by name (contract.pxd, FactsC)
        if not 1 <= core.c.facts.num_players <= MAX_PLAYERS:
            raise ValueError(f"num_players must be in 1..{MAX_PLAYERS}, "
                             f"got {core.c.facts.num_players}")
        return core

    @staticmethod
    def fact_fields():
        """FactsC's fields in order, each with a zero of its C type's Python
        type (0 or 0.0): what tests/test_kit.py holds kit.GameFacts to."""
        cdef FactsC zero
        memset(&zero, 0, sizeof(FactsC))
        return zero

    def finish_setup(self, game, hooks):
        """Called once the core module has filled c: allocate scratch."""
        if (self.c.current_player == NULL or self.c.legal_actions == NULL or
                self.c.chance_outcomes == NULL or self.c.apply_action == NULL or
                self.c.returns == NULL or self.c.state_size == 0):
            raise ValueError(f"{game.name}: the core left a required GameC function or "
                             f"state_size unset")
        self.game = game
        self.hooks = hooks
        if self._params is not None:
            self.c.params = <const char*> self._params
        self._actions = <int*> malloc(sizeof(int) * (self.c.facts.num_distinct_actions + 1))
        self._outcomes = <int*> malloc(sizeof(int) * (self.c.facts.max_chance_outcomes + 1))
        self._probs = <double*> malloc(sizeof(double) * (self.c.facts.max_chance_outcomes + 1))
        if self._actions == NULL or self._outcomes == NULL or self._probs == NULL:
            raise MemoryError()

    def set_params(self, bytes block):
        self._params = block
        self.c.params = <const char*> self._params

    @property
    def has_scores(self):
        """Whether the core reports per-player scores (GameC.scores)."""
        return self.c.scores != NULL

    @property
    def has_rollout_policy(self):
        """Whether the core has a rollout policy (GameC.rollout_action)."""
        return self.c.rollout_action != NULL

    @property
    def has_random_playout(self):
        """Whether the core plays random rollouts itself (GameC.random_playout)."""
        return self.c.random_playout != NULL

    @property
    def state_size(self):
        return self.c.state_size

    def facts(self):
        """The facts the GameC holds, as a kit.GameFacts."""
        return GameFacts(**self.c.facts)

    def player_of(self, bytes raw):
        """The player to move in the state struct `raw` (a state's bytes, as
        a JSON view of them is made without a state object)."""
        if len(raw) != self.c.state_size:
            raise ValueError(f"state buffer has {len(raw)} bytes, expected {self.c.state_size}")
        return self.c.current_player(&self.c, <const char*> raw)

    def new_state(self, bytes raw=None):
        cdef CoreState s = CoreState.__new__(CoreState)
        s.core = self
        s.buf = <char*> malloc(self.c.state_size)
        if s.buf == NULL:
            raise MemoryError()
        s._history = []
        s._decisions = 0
        s._origin = None
        s._move_base = 0
        if raw is None:
            self.hooks.init_state(self, s)
        else:
            if len(raw) != self.c.state_size:
                raise ValueError(f"state buffer has {len(raw)} bytes, expected {self.c.state_size}")
            memcpy(s.buf, <const char*> raw, self.c.state_size)
        return s


cdef class CoreState:
    def __dealloc__(self):
        free(self.buf)

    # -- raw access for game modules and the search -------------------------
    def raw(self):
        """The state struct as bytes (a copy)."""
        return (<char*> self.buf)[:self.core.c.state_size]

    def set_raw(self, bytes raw):
        if len(raw) != self.core.c.state_size:
            raise ValueError("wrong state size")
        memcpy(self.buf, <const char*> raw, self.core.c.state_size)

    @property
    def core(self):
        return self.core

    def get_game(self):
        return self.core.game

    # -- OpenSpiel-style face -------------------------------------------------
    def current_player(self):
        return self.core.c.current_player(&self.core.c, self.buf)

    def is_chance_node(self):
        return self.core.c.current_player(&self.core.c, self.buf) == PLAYER_CHANCE

    def is_terminal(self):
        return self.core.c.current_player(&self.core.c, self.buf) == PLAYER_TERMINAL

    def legal_actions(self):
        cdef int n = self.core.c.legal_actions(&self.core.c, self.buf, self.core._actions)
        return [self.core._actions[i] for i in range(n)]

    def chance_outcomes(self):
        cdef int n = self.core.c.chance_outcomes(&self.core.c, self.buf,
                                                 self.core._outcomes, self.core._probs)
        return [(self.core._outcomes[i], self.core._probs[i]) for i in range(n)]

    def sample_chance(self, double u):
        """The outcome the game's fast sampler picks for u in [0, 1), or None
        if the game has no sampler (the search then uses chance_outcomes)."""
        if self.core.c.sample_chance == NULL:
            return None
        if self.core.c.current_player(&self.core.c, self.buf) != PLAYER_CHANCE:
            raise ValueError("not a chance node")
        if not 0.0 <= u < 1.0:
            raise ValueError(f"u must be in [0, 1), got {u}")
        return self.core.c.sample_chance(&self.core.c, self.buf, u)

    def chance_source(self):
        """Which of the game's sources of chance (GameC.chance_source) the
        chance event here draws from: 0 for a game with one source."""
        if self.core.c.current_player(&self.core.c, self.buf) != PLAYER_CHANCE:
            raise ValueError("not a chance node")
        if self.core.c.chance_source == NULL:
            return 0
        return self.core.c.chance_source(&self.core.c, self.buf)

    def is_legal(self, action):
        cdef int a, n, i, player
        if not isinstance(action, int) or isinstance(action, bool):
            return False
        if action < 0 or action > 2**31 - 1:
            return False
        a = action
        player = self.core.c.current_player(&self.core.c, self.buf)
        if player == PLAYER_CHANCE:
            n = self.core.c.chance_outcomes(&self.core.c, self.buf,
                                            self.core._outcomes, self.core._probs)
            for i in range(n):
                if self.core._outcomes[i] == a:
                    return True
            return False
        n = self.core.c.legal_actions(&self.core.c, self.buf, self.core._actions)
        for i in range(n):
            if self.core._actions[i] == a:
                return True
        return False

    def apply_action(self, action):
        """Apply a legal action (or, at a chance node, a possible outcome)."""
        if not self.is_legal(action):
            raise IllegalActionError(textio.illegal_message(self, action))
        if self.core.c.current_player(&self.core.c, self.buf) >= 0:
            self._decisions += 1
        self.core.c.apply_action(&self.core.c, self.buf, <int> action)
        self._history.append(int(action))

    def returns(self):
        cdef double out[MAX_PLAYERS]
        self.core.c.returns(&self.core.c, self.buf, out)
        return [out[i] for i in range(self.core.c.facts.num_players)]

    def evaluate(self):
        """The game's heuristic estimate of the returns (None if it has none)."""
        cdef double out[MAX_PLAYERS]
        if self.core.c.evaluate == NULL:
            return None
        self.core.c.evaluate(&self.core.c, self.buf, out)
        return [out[i] for i in range(self.core.c.facts.num_players)]

    def rollout_action(self, double u1, double u2):
        """The action the game's rollout policy picks here with uniforms u1, u2
        (None if the game has no policy or this is not a decision node)."""
        cdef const GameC* g = &self.core.c
        cdef int n, i
        if g.rollout_action == NULL:
            return None
        n = g.legal_actions(g, self.buf, self.core._actions)
        if n == 0:
            return None
        i = g.rollout_action(g, self.buf, self.core._actions, n, u1, u2)
        if not 0 <= i < n:
            raise RuntimeError(f"the rollout policy returned index {i} of {n} legal actions")
        return self.core._actions[i]

    def scores(self):
        """Each player's points so far (None if the game keeps no score)."""
        cdef double out[MAX_PLAYERS]
        if self.core.c.scores == NULL:
            return None
        self.core.c.scores(&self.core.c, self.buf, out)
        return [out[i] for i in range(self.core.c.facts.num_players)]

    def history(self):
        """The actions and chance outcomes applied since the state's origin
        (the initial state, or the position it was loaded from)."""
        return list(self._history)

    def move_number(self):
        """Actions and chance outcomes applied since the game's initial state;
        None when the state was loaded from a position that did not give its
        move number (textio.mark_loaded)."""
        return None if self._move_base is None else self._move_base + len(self._history)

    def loaded_from(self):
        """The JSON view of the position the state was loaded from, or None
        if it was played from the initial state."""
        return self._origin

    def decisions_taken(self):
        return self._decisions

    def clone(self):
        cdef CoreState s = CoreState.__new__(CoreState)
        s.core = self.core
        s.buf = <char*> malloc(self.core.c.state_size)
        if s.buf == NULL:
            raise MemoryError()
        memcpy(s.buf, self.buf, self.core.c.state_size)
        s._history = list(self._history)
        s._decisions = self._decisions
        s._origin = self._origin
        s._move_base = self._move_base
        return s

    def child(self, action):
        s = self.clone()
        s.apply_action(action)
        return s

    def to_json(self):
        return self.core.hooks.state_to_json(self.core.game, self.raw())

    def action_to_string(self, action):
        return textio.action_to_string(self, action)

    def string_to_action(self, text):
        return textio.string_to_action(self, text)

    def serialize(self):
        return textio.serialize(self)

    def to_notation(self):
        """The position in the game's table notation (games that have one)."""
        return self.core.game.notation_of(self)

    def __str__(self):
        return self.core.game.codec.state_to_string(self.to_json())

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        cdef CoreState o = other
        return (o.core is self.core and
                memcmp(o.buf, self.buf, self.core.c.state_size) == 0)

    __hash__ = None
