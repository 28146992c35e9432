"""Helpers for immutable states: every transition builds new tuples instead of changing them."""

from __future__ import annotations

from typing import TypeVar, overload

T = TypeVar("T")


@overload
def replace_at(values: tuple[T, T], index: int, value: T) -> tuple[T, T]: ...


@overload
def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]: ...


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``values[index]`` replaced by ``value`` (a new tuple).

    >>> replace_at((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return (*values[:index], value, *values[index + 1 :])
