"""A clock a test moves by hand, for the app's `clock`: grace periods and "typed recently" are
then decided by the test, not by how busy the machine running it is."""

from __future__ import annotations


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
