"""Subcommands of the `dicecam` CLI, one module each (see dicecam.cli)."""
