"""A stand-in for SkyRL in the resume tests workspace."""
