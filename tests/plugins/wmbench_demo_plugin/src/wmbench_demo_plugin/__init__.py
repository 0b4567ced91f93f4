"""wmbench-demo-plugin: the smallest third-party brain (``demo-echo``) and body (``demo-body``).

It exists to prove that entry points in the groups ``wmbench.brains`` and ``wmbench.bodies`` are found by
wmbench's registries. Install with ``pip install -e tests/plugins/wmbench_demo_plugin``.
"""
