"""Monte Carlo tree search over the C-level game contract (engine/contract.pxd).

One iteration: copy the root state, descend the tree choosing by UCB1
(Kocsis and Szepesvari 2006),

    a* = argmax_a  Q(a) / N(a) + c * sqrt(ln A(a) / N(a)),

expand one new node, finish the game with uniformly random moves, or with
the game's rollout policy (GameC.rollout_action, "heavy playouts") when the
`rollout` option is "policy" (or stop after `rollout_depth` moves and ask the
game's heuristic evaluation), and add
each player's utility to the nodes on the path, each node keeping the utility
of the player who chose its action (max^n for several players).

A(a) is the availability count of Cowling, Powley and Whitehouse's
information-set MCTS (2012): how often the parent was visited while `a` was
legal. In the IS form chance outcomes are not in the tree: each iteration
samples a fresh determinization of every future draw and roll, and an action
that is legal only in some worlds competes only when it is available. In a
game where legality never depends on chance, A(a) equals the parent's visits
since `a` was added, and UCB1 is plain UCT. The closed form puts chance nodes
in the tree (one child per outcome met); the PIMC form is the closed form on
one fixed world, where the k-th chance event of every line gets the same
random number.

The loop touches no Python object and runs without the GIL; nodes live in
one flat array (indices, not pointers) that grows by doubling.
"""
cimport cython
from libc.math cimport log, pow, sqrt
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.buffer cimport PyBUF_READ
from cpython.memoryview cimport PyMemoryView_FromMemory

import numpy as np

from easel.search import params

from easel.engine.contract cimport GameC, PLAYER_CHANCE, PLAYER_TERMINAL, MAX_PLAYERS, MAX_CHANCE_SOURCES
from easel.engine._core cimport CoreGame, CoreState
from easel.engine.rng cimport (RngC, PlayoutRandC, rng_seed, rng_below, rng_uniform,
                               hash_uniform, pick_index)

FORMS = {"is": FORM_IS, "closed": FORM_CLOSED, "pimc": FORM_PIMC}


cdef inline int _source(const GameC* g, const void* s) noexcept nogil:
    """The source of chance the event at `s` draws from (GameC.chance_source)."""
    return g.chance_source(g, s) & (MAX_CHANCE_SOURCES - 1)
ROLLOUTS = {"random": ROLLOUT_RANDOM, "policy": ROLLOUT_POLICY}
# (the names are the choices of the form and rollout options in search/params.py)
assert tuple(FORMS) == params.MCTS["form"].choices
assert tuple(ROLLOUTS) == params.MCTS["rollout"].choices


def _option_fields():
    """The field names of TreeOptionsC (search/_mcts.pxd), read from the
    dict Cython makes of the struct."""
    cdef TreeOptionsC none
    memset(&none, 0, sizeof(TreeOptionsC))
    return set(<dict> none)


TREE_OPTIONS = tuple(params.check_tree_options({}))     # search/params.py, tree=True
if _option_fields() != set(TREE_OPTIONS):
    raise ImportError(f"search/_mcts.pxd's TreeOptionsC fields {sorted(_option_fields())} are "
                      f"not search/params.py's tree options {sorted(TREE_OPTIONS)}: give each "
                      f"tree=True option a field of its name")
DEFAULT_MAX_NODES = params.DEFAULT_MAX_NODES
# A node row's kind and flags (NODE_DTYPE), for the readers of the rows
# (search/analysis.py, search/pv.py): the values are search/_mcts.pxd's.
KINDS = {"decision": KIND_DECISION, "chance": KIND_CHANCE}
FLAGS = {"after_chance": FLAG_AFTER_CHANCE}

NODE_DTYPE = np.dtype([
    ("first_child", np.int32), ("next_sibling", np.int32), ("action", np.int32),
    ("n_visits", np.int32), ("n_avail", np.int32), ("ext", np.int32),
    ("total", np.float32), ("mover", np.int8), ("kind", np.int8),
    ("flags", np.int8), ("pad", np.int8)])
STATS_DTYPE = np.dtype([
    ("n", np.float64), ("sum_u", np.float64, (MAX_PLAYERS,)), ("sum_u2", np.float64),
    ("sum_win", np.float64, (MAX_PLAYERS,)), ("sum_score", np.float64, (MAX_PLAYERS,)),
    ("sum_margin", np.float64), ("sum_margin2", np.float64)])


# ln(n) for the availability counts UCB1 meets most (small ones, deep in the
# tree): a lookup instead of a libm call, the same doubles log() returns.
cdef enum:
    LN_TABLE = 2048
cdef double _LN[LN_TABLE]
for _i in range(LN_TABLE):
    _LN[_i] = log(<double> _i)


cdef inline double _ln(int n) noexcept nogil:
    return _LN[n] if n < LN_TABLE else log(<double> n)


cdef object _rows(void* data, Py_ssize_t n, dtype):
    """A numpy view (no copy) of n records of `dtype` at `data`. Read at
    once, with the GIL held: the arena may move when the tree grows."""
    return np.frombuffer(PyMemoryView_FromMemory(<char*> data, n * dtype.itemsize, PyBUF_READ),
                         dtype=dtype)


# One spare node arena per process. A search that ends leaves its arena
# here and the next one starts in it: memory already touched, where a new
# allocation costs a page fault per 4 KiB the search fills (about 1 ms per
# 20,000 nodes, the extra cost of the first searches of a process). Arenas
# up to SPARE_MAX_NODES are kept; only code holding the GIL touches it.
cdef enum:
    SPARE_MAX_NODES = 1 << 20             # 32 MiB
cdef NodeC* _spare = NULL
cdef int _spare_cap = 0


cdef void _give_spare(NodeC* nodes, int cap) noexcept:
    global _spare, _spare_cap
    if nodes == NULL:
        return
    if cap > _spare_cap and cap <= SPARE_MAX_NODES:
        free(_spare)
        _spare, _spare_cap = nodes, cap
    else:
        free(nodes)


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


@cython.final
cdef class Tree:
    """One search tree over one root position (see the module docstring;
    its fields are declared in search/_mcts.pxd)."""

    def __cinit__(self):
        self.nodes = NULL
        self.ext = NULL
        self.root_state = NULL
        self.work = NULL
        self.path = NULL
        self.actions = NULL
        self.untried = NULL
        self.outcomes = NULL
        self.probs = NULL
        self.stamp_of = NULL
        self.child_of = NULL
        self.line = NULL
        self.kept_line = NULL

    def __dealloc__(self):
        _give_spare(self.nodes, self.cap_nodes)
        free(self.ext)
        free(self.root_state)
        free(self.work)
        free(self.path)
        free(self.actions)
        free(self.untried)
        free(self.outcomes)
        free(self.probs)
        free(self.stamp_of)
        free(self.child_of)
        free(self.line)
        free(self.kept_line)

    def __init__(self, CoreState state not None, unsigned long long seed=0,
                 unsigned long long world_seed=0, int max_nodes=DEFAULT_MAX_NODES,
                 bint native_playout=True, bint sources=False,
                 unsigned long long chance_k0=0, bint known=False, bint keep_line=False,
                 **options):
        """options: the search options a tree takes (TREE_OPTIONS: those of
        search/params.py with tree=True), checked there; the others take
        their generic values. max_nodes: this tree's cap (a search gives
        each tree its share). sources, chance_k0: the world (of the PIMC
        form, or of a tree told it) read by source (GameC.chance_source; search/clairvoyant.py): the
        j-th draw of source s takes hash_uniform(world_seed, j + s * 2**40),
        each iteration counting on from chance_k0, the draws already made
        (16 bits a source, source s at bit 16 s); without it, the k-th
        chance event takes hash_uniform(world_seed, k) whatever its source.
        known: chance reads the world in the IS form too, whose tree then
        holds the decisions of that one world (the clairvoyant's: no node
        for a chance event whose outcome is known).
        keep_line: keep the best line a playout finished (best_line(); one
        player, and a tree whose every draw reads the world: known, or the
        PIMC form), its decisions replayed from the root reaching that end."""
        cdef int span
        o = params.check_tree_options(options)
        self.core = state.core
        self.g = &self.core.c
        # Every option at once into its field (a dict converted to the struct).
        self.opt = dict(o, form=FORMS[o["form"]], rollout=ROLLOUTS[o["rollout"]])
        if self.opt.rollout == ROLLOUT_POLICY and self.g.rollout_action == NULL:
            raise ValueError("rollout 'policy': this game has no rollout policy")
        # Random rollouts to the end go through the game's own playout when
        # it has one (GameC.random_playout: the same moves from the same
        # numbers, without a call through the table per step); False keeps
        # the generic loop, to check the two agree and to measure the gain.
        self.native_playout = native_playout
        if self.opt.policy_bias > 0.0 and self.g.rollout_action == NULL:
            raise ValueError("policy_bias: this game has no rollout policy")
        self.world = world_seed
        self.sources = sources
        self.known = known
        self.chance_k0 = chance_k0 if sources else 0
        if keep_line and self.g.facts.num_players != 1:
            raise ValueError("keep_line: a best line is one player's (a solo game)")
        if keep_line and not (known or self.opt.form == FORM_PIMC):
            raise ValueError("keep_line: a line replays to its end only where every draw "
                             "reads the world (known=True, or the PIMC form)")
        self.keep_line = keep_line
        self.have_best = False
        self.n_best = 0
        self.n_line = 0
        self.max_nodes = max(max_nodes, 16)
        rng_seed(&self.rng, seed)
        span = max(self.g.facts.num_distinct_actions, self.g.facts.max_chance_outcomes) + 1
        self.root_state = <char*> malloc(self.g.state_size)
        self.work = <char*> malloc(self.g.state_size)
        self.path_cap = 4 * self.g.facts.max_game_length + 64
        self.path = <int*> malloc(sizeof(int) * self.path_cap)
        self.actions = <int*> malloc(sizeof(int) * span)
        self.untried = <int*> malloc(sizeof(int) * span)
        self.outcomes = <int*> malloc(sizeof(int) * span)
        self.probs = <double*> malloc(sizeof(double) * span)
        self.stamp_of = <int*> malloc(sizeof(int) * span)
        self.child_of = <int*> malloc(sizeof(int) * span)
        if keep_line:
            self.line = <int*> malloc(sizeof(int) * self.path_cap)
            self.kept_line = <int*> malloc(sizeof(int) * self.path_cap)
            if self.line == NULL or self.kept_line == NULL:
                raise MemoryError()
        if (self.root_state == NULL or self.work == NULL or self.path == NULL or
                self.actions == NULL or self.untried == NULL or self.outcomes == NULL or
                self.probs == NULL or self.stamp_of == NULL or self.child_of == NULL):
            raise MemoryError()
        memset(self.stamp_of, 0, sizeof(int) * span)
        self.stamp = 0
        memcpy(self.root_state, state.ptr(), self.g.state_size)
        self._reset_nodes()

    cdef void _reset_nodes(self) except *:
        _give_spare(self.nodes, self.cap_nodes)
        self.nodes = NULL
        # First arenas no larger than the cap: a search of many small trees
        # (PIMC worlds) holds no more than its node budget.
        self.cap_nodes = min(1024, self.max_nodes)
        self.nodes = <NodeC*> malloc(sizeof(NodeC) * self.cap_nodes)
        self.cap_ext = min(256, self.max_nodes)
        free(self.ext)
        self.ext = <TurnStatsC*> malloc(sizeof(TurnStatsC) * self.cap_ext)
        if self.nodes == NULL or self.ext == NULL:
            raise MemoryError()
        self.n_nodes = 1
        self.n_ext = 0
        memset(&self.nodes[0], 0, sizeof(NodeC))
        self.nodes[0].first_child = -1
        self.nodes[0].next_sibling = -1
        self.nodes[0].action = -1
        self.nodes[0].ext = -1
        self.nodes[0].mover = PLAYER_CHANCE
        self.root_player = self.g.current_player(self.g, self.root_state)
        self.iterations = 0
        self.elapsed = 0.0
        self.cancelled = 0

    # -- arena -------------------------------------------------------------
    cdef int _new_ext(self) noexcept nogil:
        """A turn-statistics record; -1 when none can be had. A node holds at
        most one, so the pool never needs more than max_nodes."""
        cdef TurnStatsC* grown
        cdef int cap
        if self.n_ext == self.cap_ext:
            cap = self.cap_ext * 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            if cap <= self.cap_ext:
                return -1
            grown = <TurnStatsC*> realloc(self.ext, sizeof(TurnStatsC) * cap)
            if grown == NULL:
                return -1
            self.ext = grown
            self.cap_ext = cap
        memset(&self.ext[self.n_ext], 0, sizeof(TurnStatsC))
        self.n_ext += 1
        return self.n_ext - 1

    cdef void _reserve(self, long long want) noexcept:
        """Grow the node arena to `want` nodes (at most max_nodes) in one
        step, into the spare arena when it is large enough. A run with an
        iteration budget knows its size (an iteration adds at most one
        node): one allocation instead of repeated doublings, each copying
        the arena into fresh memory. Needs the GIL (the spare)."""
        global _spare, _spare_cap
        cdef NodeC* grown
        if want > self.max_nodes:
            want = self.max_nodes
        if want <= self.cap_nodes:
            return
        if _spare != NULL and _spare_cap >= want:
            memcpy(_spare, self.nodes, sizeof(NodeC) * self.n_nodes)
            grown, self.nodes = self.nodes, _spare
            self.cap_nodes, _spare_cap = _spare_cap, self.cap_nodes
            _spare = grown                 # the small one waits as the spare
            if _spare_cap > SPARE_MAX_NODES:
                free(_spare)
                _spare, _spare_cap = NULL, 0
            return
        grown = <NodeC*> realloc(self.nodes, sizeof(NodeC) * want)
        if grown != NULL:                  # else doubling takes over, as it can
            self.nodes = grown
            self.cap_nodes = <int> want

    cdef int _new_node(self, int parent, int action, int mover, int kind) noexcept nogil:
        """Add a child to `parent`; -1 when the arena is full."""
        cdef NodeC* grown
        cdef int idx, cap
        if self.n_nodes >= self.max_nodes:    # (a spare arena may be larger)
            return -1
        if self.n_nodes == self.cap_nodes:
            cap = self.cap_nodes * 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            grown = <NodeC*> realloc(self.nodes, sizeof(NodeC) * cap)
            if grown == NULL:
                return -1
            self.nodes = grown
            self.cap_nodes = cap
        idx = self.n_nodes
        self.n_nodes += 1
        self.nodes[idx].first_child = -1
        self.nodes[idx].next_sibling = self.nodes[parent].first_child
        self.nodes[idx].action = action
        self.nodes[idx].n_visits = 0
        self.nodes[idx].n_avail = 1
        self.nodes[idx].total = 0.0
        self.nodes[idx].mover = mover
        self.nodes[idx].kind = kind
        self.nodes[idx].flags = 0
        self.nodes[idx].pad = 0
        self.nodes[idx].ext = -1
        # Full statistics only inside the root player's current turn.
        if (parent == 0 or self.nodes[parent].ext >= 0) and (
                mover == self.root_player or kind == KIND_CHANCE):
            self.nodes[idx].ext = self._new_ext()
        self.nodes[parent].first_child = idx
        return idx

    # -- one iteration -----------------------------------------------------
    # An iteration, step by step: the descent (selection down the tree, the
    # chance events on the way, the expansion of one node), the playout
    # (random or policy moves to the end, or the game's evaluation where it
    # is cut), the utilities, the backpropagation. Every step is an inline
    # method of this final class with no Python object in it: a static C
    # function called directly, which the C compiler puts back into the loop
    # (the same iterations per second as one long function).

    cdef void _iterate(self) noexcept nogil:
        cdef WalkC w
        cdef OutcomeC out
        memcpy(self.work, self.root_state, self.g.state_size)
        self.path[0] = 0
        w.node = 0
        w.depth = 0
        w.chance_k = self.chance_k0
        w.after_chance = 0
        self.n_line = 0
        self._descend(&w)
        self._playout(&w, &out)
        self._utilities(&out)
        if self.keep_line:
            self._keep_if_best(&out)
        self._backpropagate(w.depth, &out)

    cdef inline void _record(self, int a) noexcept nogil:
        """A decision of the running iteration, on its line (past the
        buffer's end the line is marked too long and is not kept)."""
        if self.n_line < self.path_cap:
            self.line[self.n_line] = a
        self.n_line += 1

    cdef void _keep_if_best(self, OutcomeC* out) noexcept nogil:
        """Keep the iteration's line if its playout finished the game better
        than the best kept: a win (returns >= 0, as the win share counts a
        solo game) first, then the score, then the return."""
        cdef double sc = out.sc[0] if self.g.scores != NULL else 0.0
        cdef bint won = out.r[0] >= 0.0, best_won = self.best_r >= 0.0
        if self.n_line > self.path_cap or self.g.current_player(self.g, self.work) != PLAYER_TERMINAL:
            return
        if self.have_best and (won < best_won or (won == best_won and (
                sc < self.best_sc or (sc == self.best_sc and out.r[0] <= self.best_r)))):
            return
        memcpy(self.kept_line, self.line, sizeof(int) * self.n_line)
        self.n_best = self.n_line
        self.best_r = out.r[0]
        self.best_sc = sc
        self.have_best = True

    cdef inline void _descend(self, WalkC* w) noexcept nogil:
        """Selection and expansion: from the root down to a node added now,
        the end of the game, or a full arena, each step applied to the work
        state and its node put on `path`."""
        cdef int p
        while w.depth < self.path_cap - 2:
            p = self.g.current_player(self.g, self.work)
            if p == PLAYER_TERMINAL:
                return
            if p == PLAYER_CHANCE:
                if self._chance_step(w):
                    return
            elif self._decision_step(w, p):
                return

    cdef inline bint _chance_step(self, WalkC* w) noexcept nogil:
        """A chance event on the way down, sampled and applied. In the IS
        form it has no node (the next decision node is marked as reached
        after chance); in the closed and PIMC forms its outcome is a child,
        found or added. True when the descent ends here (a child added, or
        none could be)."""
        cdef int a = self._sample_chance(&w.chance_k), c
        cdef NodeC* nodes
        self.g.apply_action(self.g, self.work, a)
        if self.opt.form == FORM_IS:
            w.after_chance = 1
            return False
        nodes = self.nodes
        c = nodes[w.node].first_child
        while c >= 0 and not (nodes[c].action == a and nodes[c].kind == KIND_CHANCE):
            c = nodes[c].next_sibling
        if c >= 0:
            self._push(w, c)
            return False
        c = self._new_node(w.node, a, PLAYER_CHANCE, KIND_CHANCE)
        if c >= 0:
            self._push(w, c)
        return True

    cdef inline bint _decision_step(self, WalkC* w, int p) noexcept nogil:
        """A decision of player `p`: an untried legal action gets a node and
        the descent ends there; once every legal action has one, the child
        UCB1 ranks first is taken. True when the descent ends here."""
        cdef int n = self.g.legal_actions(self.g, self.work, self.actions)
        cdef int n_untried = self._sort_children(w.node, p, n)
        cdef int pa = self._policy_action(n)
        cdef int c
        if n_untried > 0:
            self._expand(w, p, n_untried, pa)
            return True
        c = self._select(n, pa)
        self.g.apply_action(self.g, self.work, self.nodes[c].action)
        if self.keep_line:
            self._record(self.nodes[c].action)
        self.nodes[c].flags = w.after_chance
        w.after_chance = 0
        self._push(w, c)
        return False

    cdef inline int _sort_children(self, int node, int p, int n) noexcept nogil:
        """The `n` legal actions (in `actions`) sorted into those `node`
        has a child for (child_of[a], marked by the current stamp; their
        availability counts go up) and the untried ones (into `untried`).
        Returns how many are untried."""
        cdef NodeC* nodes = self.nodes
        cdef int c, i, a, n_untried = 0
        self.stamp += 1
        c = nodes[node].first_child
        while c >= 0:
            # A child is keyed by (action, mover): in the IS form chance is
            # not in the tree, so one node may be reached with different
            # players to move (Pig after a roll), and each player's
            # statistics must stay its own.
            if nodes[c].kind == KIND_DECISION and nodes[c].mover == p:
                self.stamp_of[nodes[c].action] = self.stamp
                self.child_of[nodes[c].action] = c
            c = nodes[c].next_sibling
        for i in range(n):
            a = self.actions[i]
            if self.stamp_of[a] == self.stamp:
                nodes[self.child_of[a]].n_avail += 1
            else:
                self.untried[n_untried] = a
                n_untried += 1
        return n_untried

    cdef inline int _policy_action(self, int n) noexcept nogil:
        """The action the policy bias leans toward among the `n` legal ones,
        -1 for none.

        Policy bias toward the move the rollout policy would play here
        (its greedy choice: u1 = 1 is above every epsilon): tried first,
        then a bonus of policy_bias * sqrt(A) / (N + 1), the shape of
        PUCT's prior term (Rosin 2011; Silver et al. 2017) with the
        whole prior on that one move. A game whose turn is a chain of
        small decisions (Starving Artists: pay, paint, take) otherwise
        spreads its visits over sub-choices the samples cannot tell
        apart, and picks among them by noise. A bonus fading as
        1 / (N + 1) (progressive bias, Chaslot et al. 2008) was gone
        after a few dozen visits and lost to this one (docs/design.md);
        this one shrinks as 1 / sqrt(N) while the move keeps its share
        of visits, as fast as the others' confidence intervals narrow,
        so another move is chosen only when it is better by a margin the
        samples show.
        """
        if self.opt.policy_bias > 0.0 and n > 1:
            return self.actions[self.g.rollout_action(self.g, self.work, self.actions, n,
                                                      1.0, 0.0)]
        return -1

    cdef inline void _expand(self, WalkC* w, int p, int n_untried, int pa) noexcept nogil:
        """Add a child for one untried action (the policy's, `pa`, when it
        is untried; else one drawn at random) and apply it."""
        cdef int a, c
        if pa >= 0 and self.stamp_of[pa] != self.stamp:
            a = pa
        else:
            a = self.untried[rng_below(&self.rng, n_untried)]
        c = self._new_node(w.node, a, p, KIND_DECISION)
        self.g.apply_action(self.g, self.work, a)
        if self.keep_line:
            self._record(a)
        if c < 0:
            return                            # arena full: roll out from here
        self.nodes[c].flags = w.after_chance
        self._push(w, c)

    cdef inline int _select(self, int n, int pa) noexcept nogil:
        """UCB1 with availability counts over the children of the `n` legal
        actions (child_of, set by _sort_children), with the policy bias's
        bonus on `pa`: the child to descend to."""
        cdef NodeC* nodes = self.nodes
        cdef int best = -1, i, c
        cdef double best_v = -1e300, last_avail = -1.0, log_avail = 0.0, v
        for i in range(n):
            c = self.child_of[self.actions[i]]
            if nodes[c].n_avail != last_avail:
                last_avail = nodes[c].n_avail
                log_avail = _ln(nodes[c].n_avail)
            v = (nodes[c].total / nodes[c].n_visits +
                 self.opt.uct_c * sqrt(log_avail / nodes[c].n_visits))
            if self.actions[i] == pa:
                v += (self.opt.policy_bias * sqrt(<double> nodes[c].n_avail)
                      / (nodes[c].n_visits + 1))
            if v > best_v:
                best_v = v
                best = c
        return best

    cdef inline void _push(self, WalkC* w, int c) noexcept nogil:
        """Descend to node `c`: one step deeper on `path`."""
        w.depth += 1
        self.path[w.depth] = c
        w.node = c

    cdef inline int _sample_chance(self, uint64_t* k) noexcept nogil:
        """The outcome of the chance event at the work state, the iteration's
        draws so far `k`, which it counts on: drawn from the tree's
        generator, or in PIMC (or a tree told its world) from the world's
        fixed number for the k-th event, or for the source's own count when
        the tree counts the draws by source (one source read once)."""
        cdef int n, src
        cdef uint64_t i = k[0]
        cdef double u
        if self.sources and self.g.chance_source != NULL:
            src = _source(self.g, self.work)
            i = ((i >> (16 * src)) & 0xFFFF) + (<uint64_t> src << 40)
            k[0] += (<uint64_t> 1) << (16 * src)
        else:
            k[0] += 1
        if self.opt.form == FORM_PIMC or self.known:
            u = hash_uniform(self.world, i)
        else:
            u = rng_uniform(&self.rng)
        if self.g.sample_chance != NULL:
            return self.g.sample_chance(self.g, self.work, u)
        n = self.g.chance_outcomes(self.g, self.work, self.outcomes, self.probs)
        return self.outcomes[pick_index(u, self.probs, n)]

    cdef inline void _playout(self, WalkC* w, OutcomeC* out) noexcept nogil:
        """The returns (out.r) of the game from where the descent ended:
        uniformly random moves to the end through the game's own playout
        when it has one (and the tree may use it), else the generic loop."""
        cdef const GameC* g = self.g
        cdef PlayoutRandC rnd
        cdef int cut = self.opt.rollout_depth
        if cut < 0 or g.evaluate == NULL:
            cut = -1
        # The game's own playout counts chance events as one stream.
        # (It does not say its moves, so a tree keeping its lines rolls out here.)
        if cut < 0 and self.opt.rollout == ROLLOUT_RANDOM and self.native_playout and not self.sources and (
                not self.keep_line and g.random_playout != NULL):
            rnd.rng = &self.rng
            rnd.world = self.world
            rnd.chance_k = w.chance_k
            rnd.fixed_world = self.opt.form == FORM_PIMC or self.known
            g.random_playout(g, self.work, &rnd, out.r)
        else:
            self._rollout(w.chance_k, cut, out.r)

    cdef inline void _rollout(self, uint64_t chance_k, int cut, double* r) noexcept nogil:
        """The generic playout over the rule table: random moves, or the
        game's rollout policy's, to the end; or, after `cut` decisions
        (-1: never), the game's evaluation. Chance events continue the
        iteration's count `chance_k`. (legal_actions is 0 exactly when
        nobody decides, which saves asking for the current player at every
        decision step.)"""
        cdef const GameC* g = self.g
        cdef int steps = 0, n, a
        cdef double u1, u2
        while True:
            if steps == cut:
                if g.current_player(g, self.work) == PLAYER_TERMINAL:
                    g.returns(g, self.work, r)
                else:
                    g.evaluate(g, self.work, r)
                return
            n = g.legal_actions(g, self.work, self.actions)
            if n > 0:
                if self.opt.rollout == ROLLOUT_POLICY and n > 1:
                    u1 = rng_uniform(&self.rng)
                    u2 = rng_uniform(&self.rng)
                    a = self.actions[g.rollout_action(g, self.work, self.actions, n, u1, u2)]
                else:
                    a = self.actions[rng_below(&self.rng, n)]
                steps += 1
                if self.keep_line:
                    self._record(a)
            elif g.current_player(g, self.work) == PLAYER_CHANCE:
                a = self._sample_chance(&chance_k)
            else:
                g.returns(g, self.work, r)
                return
            g.apply_action(g, self.work, a)

    cdef inline void _utilities(self, OutcomeC* out) noexcept nogil:
        """The final scores (when the game has them) and the utilities the
        nodes add: the returns, plus margin_weight times the score margin
        over the best other player, divided by the game's score scale and
        clamped to [-margin_cap, margin_cap] (with scores, several players
        and a weight); in a one-player game with a loss span, a loss (returns
        below 0, as the win share counts it) counts the least return plus
        loss_weight times its progress to the power loss_power, at most the
        largest return."""
        cdef const GameC* g = self.g
        cdef int q, i, np_ = g.facts.num_players
        cdef bint have_scores = g.scores != NULL
        cdef double other, margin, progress
        if have_scores:
            g.scores(g, self.work, out.sc)
        for q in range(np_):
            out.u[q] = out.r[q]
        if np_ == 1 and self.opt.loss_weight > 0.0 and g.facts.loss_span > 0.0 and out.r[0] < 0.0:
            progress = (out.r[0] - g.facts.min_utility) / g.facts.loss_span
            if progress > 1.0:
                progress = 1.0
            elif progress < 0.0:
                progress = 0.0
            out.u[0] = g.facts.min_utility + self.opt.loss_weight * pow(progress, self.opt.loss_power)
            if out.u[0] > g.facts.max_utility:
                out.u[0] = g.facts.max_utility
        if have_scores and self.opt.margin_weight > 0.0 and g.facts.score_scale > 0.0 and np_ > 1:
            for q in range(np_):
                other = -1e300
                for i in range(np_):
                    if i != q and out.sc[i] > other:
                        other = out.sc[i]
                margin = (out.sc[q] - other) / g.facts.score_scale
                if margin > self.opt.margin_cap:
                    margin = self.opt.margin_cap
                elif margin < -self.opt.margin_cap:
                    margin = -self.opt.margin_cap
                out.u[q] = out.r[q] + self.opt.margin_weight * margin

    cdef inline void _backpropagate(self, int depth, OutcomeC* out) noexcept nogil:
        """Add the iteration to the nodes of `path` up to `depth`: a visit,
        the mover's utility, and inside the root player's turn the full
        statistics (utilities, win shares: 1/k for a k-way tie for first, a
        solo game won at returns >= 0; scores; the root player's squared
        utility; the root player's score margin over the best other player
        and its square)."""
        cdef NodeC* nodes = self.nodes
        cdef TurnStatsC* st
        cdef int i, c, q, n_top = 0, np_ = self.g.facts.num_players
        cdef bint have_scores = self.g.scores != NULL
        cdef double top = out.r[0], margin = 0.0, other
        for q in range(1, np_):
            if out.r[q] > top:
                top = out.r[q]
        for q in range(np_):
            if out.r[q] >= top - 1e-9:
                n_top += 1
        if have_scores and self.root_player >= 0:
            margin = out.sc[self.root_player]
            if np_ > 1:
                other = -1e300
                for q in range(np_):
                    if q != self.root_player and out.sc[q] > other:
                        other = out.sc[q]
                margin -= other
        for i in range(1, depth + 1):
            c = self.path[i]
            nodes[c].n_visits += 1
            if nodes[c].mover >= 0:
                nodes[c].total += out.u[nodes[c].mover]
            if nodes[c].ext >= 0:
                st = &self.ext[nodes[c].ext]
                st.n += 1.0
                for q in range(np_):
                    st.sum_u[q] += out.u[q]
                    if np_ == 1:
                        st.sum_win[q] += 1.0 if out.r[q] >= 0.0 else 0.0
                    elif out.r[q] >= top - 1e-9:
                        st.sum_win[q] += 1.0 / n_top
                    if have_scores:
                        st.sum_score[q] += out.sc[q]
                if self.root_player >= 0:
                    st.sum_u2 += out.u[self.root_player] * out.u[self.root_player]
                    if have_scores:
                        st.sum_margin += margin
                        st.sum_margin2 += margin * margin
        nodes[0].n_visits += 1

    # -- Python face -------------------------------------------------------
    def run(self, long long iterations=-1, double time_limit=0.0):
        """Grow the tree by `iterations` (-1: no limit) or until `time_limit`
        seconds pass (0: no limit), or until cancel(). Releases the GIL.
        Returns the number of iterations done."""
        cdef long long done = 0
        cdef double start, deadline
        if iterations < 0 and time_limit <= 0.0:
            raise ValueError("give an iteration budget, a time limit, or both")
        if self.g.current_player(self.g, self.root_state) < 0:
            raise ValueError("the root must be a decision node")
        if iterations > 0:
            self._reserve(self.n_nodes + iterations)
        with nogil:
            start = _now()
            deadline = start + time_limit
            while (iterations < 0 or done < iterations) and not self.cancelled:
                self._iterate()
                done += 1
                if time_limit > 0.0 and (done & 7) == 0 and _now() >= deadline:
                    break
            self.elapsed += _now() - start
        self.iterations += done
        return done

    def best_line(self):
        """The best line a playout finished (keep_line): (its decisions
        from the root, its return, its score or None without scores), or
        None before any playout reached the end."""
        if not self.keep_line:
            raise ValueError("best_line: this tree keeps no line (keep_line=False)")
        if not self.have_best:
            return None
        return ([self.kept_line[i] for i in range(self.n_best)], self.best_r,
                self.best_sc if self.g.scores != NULL else None)

    def cancel(self):
        """Make a running run() return after its current iteration (thread-safe)."""
        self.cancelled = 1

    def uncancel(self):
        self.cancelled = 0

    @property
    def n_nodes(self):
        return self.n_nodes

    @property
    def root_player(self):
        return self.root_player

    @property
    def options(self):
        """The options this tree searches with, by search/params.py's names."""
        o = <dict> self.opt
        o["form"] = {v: k for k, v in FORMS.items()}[o["form"]]
        o["rollout"] = {v: k for k, v in ROLLOUTS.items()}[o["rollout"]]
        return o

    @staticmethod
    def bytes_per_node():
        return sizeof(NodeC)

    def memory_bytes(self):
        return self.cap_nodes * sizeof(NodeC) + self.cap_ext * sizeof(TurnStatsC)

    def root_visits(self):
        """(action, visits) of the root's decision children."""
        return [(a, n) for a, n, _ in self.root_children()]

    def root_children(self):
        """(action, visits, total utility of the mover) of the root's decision
        children, in child order: all a bot's decision reads (its cost is the
        root's children, however large the tree has grown). Counted in
        `nodes_read`."""
        out = []
        cdef int c = self.nodes[0].first_child
        while c >= 0:
            if self.nodes[c].kind == KIND_DECISION:
                out.append((self.nodes[c].action, self.nodes[c].n_visits,
                            <double> self.nodes[c].total))
            c = self.nodes[c].next_sibling
        self.nodes_read += len(out)
        return out

    def export(self):
        """Copies of the node and turn-statistics arrays (numpy structured)."""
        return (_rows(self.nodes, self.n_nodes, NODE_DTYPE).copy(),
                _rows(self.ext, self.n_ext, STATS_DTYPE).copy())

    def children(self, int node):
        """The children of `node`: their indices and their rows (NODE_DTYPE,
        copied), in child order. What an analysis reads, node by node, from
        the root down the lines it describes (search/mcts.py), so that it
        never copies or walks the whole tree. Counted in `nodes_read`."""
        if node < 0 or node >= self.n_nodes:
            raise IndexError(f"node {node} is not in this tree ({self.n_nodes} nodes)")
        cdef int c = self.nodes[node].first_child
        cdef list idx = []
        while c >= 0:
            idx.append(c)
            c = self.nodes[c].next_sibling
        self.nodes_read += len(idx)
        ix = np.asarray(idx, dtype=np.int64)
        return ix, _rows(self.nodes, self.n_nodes, NODE_DTYPE)[ix]    # fancy indexing copies

    def turn_stats(self, int ext):
        """A turn-statistics record (STATS_DTYPE, copied), by a node's `ext`."""
        if ext < 0 or ext >= self.n_ext:
            raise IndexError(f"turn statistics {ext} are not in this tree ({self.n_ext})")
        return _rows(self.ext, self.n_ext, STATS_DTYPE)[ext].copy()

    def advance(self, actions):
        """Move the root along `actions` (decisions and chance outcomes applied
        to the position since the last search), keeping the subtree below.
        Returns True if a subtree was kept, False if the tree restarted."""
        cdef int node = 0, c, a, kind, p
        cdef bint kept = True
        for a in actions:
            p = self.g.current_player(self.g, self.root_state)
            if p == PLAYER_TERMINAL:
                raise ValueError("cannot advance past the end of the game")
            kind = KIND_CHANCE if p == PLAYER_CHANCE else KIND_DECISION
            self._check_legal(a, p)
            if kind == KIND_CHANCE and self.sources and self.g.chance_source != NULL:
                # The known future goes on from the draws now made.
                self.chance_k0 += (<uint64_t> 1) << (16 * _source(self.g, self.root_state))
            self.g.apply_action(self.g, self.root_state, a)
            if not kept:
                continue
            if kind == KIND_CHANCE and self.opt.form == FORM_IS:
                continue
            c = self.nodes[node].first_child
            while c >= 0 and not (self.nodes[c].action == a and self.nodes[c].kind == kind
                                  and (kind == KIND_CHANCE or self.nodes[c].mover == p)):
                c = self.nodes[c].next_sibling
            if c < 0:
                kept = False
            else:
                node = c
        # A kept line started at the old root.
        self.have_best = False
        if kept and node != 0:
            self._reroot(node)
        elif not kept:
            self._reset_nodes()
        self.root_player = self.g.current_player(self.g, self.root_state)
        return kept

    cdef void _check_legal(self, int a, int p) except *:
        cdef int n, i
        if p == PLAYER_CHANCE:
            n = self.g.chance_outcomes(self.g, self.root_state, self.outcomes, self.probs)
            for i in range(n):
                if self.outcomes[i] == a:
                    return
        else:
            n = self.g.legal_actions(self.g, self.root_state, self.actions)
            for i in range(n):
                if self.actions[i] == a:
                    return
        raise ValueError(f"action {a} is not legal where the tree is being advanced")

    cdef void _reroot(self, int new_root) except *:
        """Copy the subtree under `new_root` into a fresh arena (breadth first);
        turn statistics restart for the new root's turn."""
        cdef int n_old = self.n_nodes, head = 0, tail = 1, old, c, prev, nc
        cdef NodeC* fresh = <NodeC*> malloc(sizeof(NodeC) * self.cap_nodes)
        cdef int* order = <int*> malloc(sizeof(int) * n_old)
        cdef int* new_of = <int*> malloc(sizeof(int) * n_old)
        if fresh == NULL or order == NULL or new_of == NULL:
            free(fresh)
            free(order)
            free(new_of)
            raise MemoryError()
        order[0] = new_root
        new_of[new_root] = 0
        while head < tail:
            old = order[head]
            fresh[head] = self.nodes[old]
            fresh[head].ext = -1
            head += 1
            c = self.nodes[old].first_child
            while c >= 0:
                new_of[c] = tail
                order[tail] = c
                tail += 1
                c = self.nodes[c].next_sibling
        for nc in range(tail):
            old = order[nc]
            if fresh[nc].first_child >= 0:
                fresh[nc].first_child = new_of[fresh[nc].first_child]
            if fresh[nc].next_sibling >= 0 and nc > 0:
                fresh[nc].next_sibling = new_of[fresh[nc].next_sibling]
        fresh[0].next_sibling = -1
        fresh[0].action = -1
        fresh[0].mover = PLAYER_CHANCE
        _give_spare(self.nodes, self.cap_nodes)
        free(order)
        free(new_of)
        self.nodes = fresh
        self.n_nodes = tail
        self.n_ext = 0
        self.root_player = self.g.current_player(self.g, self.root_state)
        self._attach_turn_stats(0)

    cdef void _attach_turn_stats(self, int node) except *:
        cdef int c = self.nodes[node].first_child
        while c >= 0:
            if self.nodes[c].mover == self.root_player or self.nodes[c].kind == KIND_CHANCE:
                self.nodes[c].ext = self._new_ext()
                if self.nodes[c].ext < 0:
                    raise MemoryError()
                self._attach_turn_stats(c)
            c = self.nodes[c].next_sibling

    def root_state_copy(self):
        """The root position as a new CoreState (history not kept)."""
        return self.core.new_state((<char*> self.root_state)[:self.g.state_size])
