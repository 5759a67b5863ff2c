"""Hand-built positions shared by several test modules."""

# White beetles cover both black pieces: pass is Black's only move.
PASS_ONLY = (
    r"Base+MLP;InProgress;Black[7];wG1;bA1 wG1-;wQ -wG1;bQ bA1-;wB1 /wG1;bQ bA1/;wB1 /bA1;bQ bA1-;"
    r"wB1 bA1;bQ wB1\;wB2 \wB1;bQ wB1-;wB1 bQ"
)
# bQ has five neighbours; wA2 can slide into the sixth (wA2 /bQ).
BLACK_QUEEN_TRAPPED = (
    r"Base+MLP;InProgress;White[6];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 -wQ;bG2 bQ/;wA1 -bG2;bG3 bQ-;"
    r"wA2 -wQ;bS1 /bG3"
)

# A position whose search to a great depth (or perft) runs for a long time: what a stop must interrupt.
MIDGAME = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 \\wQ;bA1 bQ/"
