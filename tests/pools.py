"""A tiny unit pool of two invented units (a rifle squad and a brute), the smallest pool that
draws different lists: shared by the tests of `army generate`, the handicap search and the
lab's worker memory."""

from __future__ import annotations


def tiny_pool(name: str = "Tiny pool") -> str:
    """The pool file's text (TOML), named ``name``."""
    return f"""
name = "{name}"
[[units]]
text = '''
Rifles [2] Q4+ D5+ | 30pts
2x Rifle (24", A1)
'''
[[units]]
text = '''
Brute [1] Q4+ D4+ | 50pts | Tough(3)
Claws (A3, AP(1))
'''
"""
