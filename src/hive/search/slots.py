"""The layout of a search team's shared memory (:mod:`hive.search.parallel`): the slots of its header, and a task's
states."""

from .framework import MAX_DEPTH

# how long an idle process sleeps between looks at the queue, in seconds
POLL = 0.0002
# the header: the batch's number, the stop, quit and beta-reached flags, the batch's alpha, beta, depth, ply, task
# count and path length, the search's number, draw score, root side, table age and root line's length, then the
# path from the root, per helper its node count, and the root's line (its moves from the game's start)
(
    BATCH,
    STOP,
    QUIT,
    CUT,
    ALPHA,
    BETA,
    DEPTH,
    PLY,
    COUNT,
    LENGTH,
    SEARCH,
    DRAW_SCORE,
    SIDE,
    AGE,
    LINE_LENGTH,
    PATH,
) = range(16)
LONGEST_PATH = 4 * MAX_DEPTH
NODES = PATH + LONGEST_PATH

# a task's state: pending, done, or taken by process k (``TAKEN + k``, the parent being 0)
PENDING, DONE, TAKEN = 0, 1, 2
