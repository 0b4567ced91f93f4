"""The quadrotor: its airframe and mixer, the PID cascade, optional aerodynamics, and the body itself."""
