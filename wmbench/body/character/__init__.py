"""The 22-joint human character, played kinematically from motion frames."""
