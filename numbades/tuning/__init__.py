"""How ``auto`` chooses an engine: the policy, its thresholds, and what was measured here.

``policy`` holds every threshold and the one rule that turns the shape of a
piece of work into an engine name; ``saved_choice`` the per-machine choices
``numbades opts --save`` measured; ``machine`` the CPU facts both depend on.
Tuning reads the engine registry and nothing above it.
"""
