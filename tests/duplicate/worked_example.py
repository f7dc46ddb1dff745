"""The worked example of docs/DUPLICATE.md: an event of 3 deals, 4 entrants in seat 0.

Deal 0: Ann and Bob make a garde (+150 each), Cleo goes down (-50), Dan's table
passes the deal out (0). Deal 1: everyone loses, Dan least, Bob and Cleo alike.
Deal 2: Dan has stopped (deals are played in order: a deal not played is one
never reached). The percentages are worked by hand in the tests that use them.
"""

from __future__ import annotations

from server.duplicate import DealResult

ENTRANTS = ["Ann", "Bob", "Cleo", "Dan"]
SCORES = {  # deal -> entrant -> the sheet's score for seat 0
    0: {"Ann": 150, "Bob": 150, "Cleo": -50, "Dan": 0},
    1: {"Ann": -105, "Bob": -70, "Cleo": -70, "Dan": -35},
    2: {"Ann": -35, "Bob": 210, "Cleo": -70},
}
RESULTS = [
    DealResult(entrant, deal, 0, score)
    for deal, scores in SCORES.items()
    for entrant, score in scores.items()
]
