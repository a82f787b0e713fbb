"""The OPR game procedure written once (seed 003 GFF and seed 002 Riverside), driven by the
hooks of :class:`~oprlab.game.opr.hooks.OprRules`."""
