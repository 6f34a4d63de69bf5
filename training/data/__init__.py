"""Training data without torch: the shared photos, rendered sources, augmentation, targets, caches, mining."""
