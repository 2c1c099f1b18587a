"""What every stage shares: safe file writing, settings presets, names loaded on first use."""
