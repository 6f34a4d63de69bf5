"""dicecam: read real dice from a photo and keep the table's score sheet."""

__version__ = "0.1.0"
