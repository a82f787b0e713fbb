"""Rule systems: one package per system (gff, riverside, wwpd, dq)."""
