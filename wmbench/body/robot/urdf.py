"""The servo robot's URDF, generated from the skeleton's proportions and the servo table.

Card
----
- **Shape.** A humanoid of our own at :data:`ROBOT_SCALE` of the 22-joint skeleton (about 1.5 m tall, pelvis
  0.86 m, about 29 kg): box pelvis and chest, sphere head, capsule limbs, box feet. Robot frame: x forward,
  y left, z up; the zero pose stands with arms hanging.
- **Servos.** 20 revolute joints, named and limited by :data:`wmbench.body.robot.servo_map.SERVO_TABLE` (limits,
  effort, velocity): torso yaw/pitch, neck yaw/pitch, per arm shoulder pitch/roll and elbow, per leg hip
  pitch/roll/yaw, knee and ankle. Multi-axis joints use small intermediate links (0.2–0.3 kg).
- **Files.** :func:`robot_urdf_text` builds the text once per process; :func:`robot_urdf_path` writes it to a
  content-addressed file in the temp directory (atomic, shared by every env in the machine), because
  ``loadURDF`` wants a file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from wmbench.body.robot.servo_map import SERVO_TABLE, ServoSpec
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES

#: The robot's size relative to the 22-joint skeleton.
ROBOT_SCALE = 0.9
SHELL = "0.86 0.87 0.90 1"
DARK = "0.20 0.22 0.26 1"
LENS = "0.10 0.45 0.85 1"


def _robot_point(name: str) -> np.ndarray:
    """A rest-pose joint in robot coordinates (x fwd, y left, z up), scaled, metres."""
    v = DEFAULT_SKELETON.rest_pose()[JOINT_NAMES.index(name)]
    return ROBOT_SCALE * np.array([v[2], v[0], v[1]])


def _bone(child: str) -> float:
    return float(ROBOT_SCALE * DEFAULT_SKELETON.bone_lengths()[JOINT_NAMES.index(child)])


@dataclass(frozen=True)
class Shape:
    """A link's geometry: ``kind`` box (size = x, y, z), capsule (size = radius, total length along z),
    sphere (size = radius,); ``xyz`` its centre in the link frame."""

    kind: str
    size: tuple[float, ...]
    xyz: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rgba: str = SHELL


@dataclass(frozen=True)
class LinkSpec:
    name: str
    mass: float
    shape: Shape


@dataclass(frozen=True)
class JointSpec:
    """A servo joint: ``parent`` -> ``child`` at ``xyz`` (parent frame); limits come from the servo row."""

    servo: str
    parent: str
    child: str
    xyz: tuple[float, float, float]


def _v(a: np.ndarray) -> tuple[float, float, float]:
    return (round(float(a[0]), 5), round(float(a[1]), 5), round(float(a[2]), 5))


def _limb(side: str) -> tuple[list[LinkSpec], list[JointSpec]]:
    s = f"{side}_"
    upper_arm, forearm = _bone(s + "elbow"), _bone(s + "wrist")
    thigh, shin = _bone(s + "knee"), _bone(s + "ankle")
    foot = _robot_point(s + "foot") - _robot_point(s + "ankle")
    links = [
        LinkSpec(s + "shoulder_link", 0.2, Shape("sphere", (0.045,), rgba=DARK)),
        LinkSpec(s + "upper_arm", 1.2, Shape("capsule", (0.04, upper_arm), (0.0, 0.0, -upper_arm / 2))),
        LinkSpec(s + "forearm", 0.9, Shape("capsule", (0.035, forearm), (0.0, 0.0, -forearm / 2))),
        LinkSpec(s + "hip_link", 0.3, Shape("sphere", (0.05,), rgba=DARK)),
        LinkSpec(s + "hip_roll_link", 0.3, Shape("sphere", (0.045,), rgba=DARK)),
        LinkSpec(s + "thigh", 2.5, Shape("capsule", (0.06, thigh), (0.0, 0.0, -thigh / 2))),
        LinkSpec(s + "shin", 1.6, Shape("capsule", (0.05, shin), (0.0, 0.0, -shin / 2))),
        LinkSpec(s + "foot", 0.5, Shape("box", (0.2, 0.09, 0.04), _v(foot / 2 + np.array([0.0, 0.0, -0.01])),
                                        rgba=DARK)),
    ]
    shoulder = _robot_point(s + "shoulder") - _robot_point("spine1")
    hip = _robot_point(s + "hip") - _robot_point("pelvis")
    joints = [
        JointSpec(s + "shoulder_pitch", "chest", s + "shoulder_link", _v(shoulder)),
        JointSpec(s + "shoulder_roll", s + "shoulder_link", s + "upper_arm", (0.0, 0.0, 0.0)),
        JointSpec(s + "elbow", s + "upper_arm", s + "forearm", (0.0, 0.0, -upper_arm)),
        JointSpec(s + "hip_pitch", "pelvis", s + "hip_link", _v(hip)),
        JointSpec(s + "hip_roll", s + "hip_link", s + "hip_roll_link", (0.0, 0.0, 0.0)),
        JointSpec(s + "hip_yaw", s + "hip_roll_link", s + "thigh", (0.0, 0.0, 0.0)),
        JointSpec(s + "knee", s + "thigh", s + "shin", (0.0, 0.0, -thigh)),
        JointSpec(s + "ankle", s + "shin", s + "foot", (0.0, 0.0, -shin)),
    ]
    return links, joints


def robot_structure() -> tuple[list[LinkSpec], list[JointSpec]]:
    """All links (base first) and servo joints of the robot."""
    spine = _robot_point("neck") - _robot_point("spine1")
    head = _robot_point("head") - _robot_point("neck")
    links = [
        LinkSpec("pelvis", 4.0, Shape("box", (0.15, 0.26, 0.12))),  # centred: the base pose is its COM
        LinkSpec("abdomen", 0.3, Shape("sphere", (0.05,), rgba=DARK)),
        LinkSpec("chest", 8.0, Shape("box", (0.17, 0.30, float(spine[2]) - 0.04), _v(spine / 2))),
        LinkSpec("neck_link", 0.2, Shape("sphere", (0.04,), rgba=DARK)),
        LinkSpec("head", 1.5, Shape("sphere", (0.1,), _v(head))),
    ]
    joints = [
        JointSpec("torso_yaw", "pelvis", "abdomen", _v(_robot_point("spine1") - _robot_point("pelvis"))),
        JointSpec("torso_pitch", "abdomen", "chest", (0.0, 0.0, 0.0)),
        JointSpec("neck_yaw", "chest", "neck_link", _v(spine)),
        JointSpec("neck_pitch", "neck_link", "head", (0.0, 0.0, 0.0)),
    ]
    for side in ("left", "right"):
        more_links, more_joints = _limb(side)
        links += more_links
        joints += more_joints
    return links, joints


def _inertia(mass: float, shape: Shape) -> tuple[float, float, float]:
    if shape.kind == "box":
        x, y, z = shape.size
        return (mass * (y * y + z * z) / 12, mass * (x * x + z * z) / 12, mass * (x * x + y * y) / 12)
    if shape.kind == "capsule":
        r, h = shape.size
        side = mass * (3 * r * r + h * h) / 12
        return (side, side, mass * r * r / 2)
    i = 0.4 * mass * shape.size[0] ** 2
    return (i, i, i)


def _geometry(shape: Shape) -> str:
    if shape.kind == "box":
        return '<box size="{:.5f} {:.5f} {:.5f}"/>'.format(*shape.size)
    if shape.kind == "capsule":
        r, h = shape.size
        return f'<capsule radius="{r:.5f}" length="{max(h - 2 * r, 1e-3):.5f}"/>'
    return f'<sphere radius="{shape.size[0]:.5f}"/>'


def _link_xml(link: LinkSpec) -> str:
    xyz = "{:.5f} {:.5f} {:.5f}".format(*link.shape.xyz)
    ixx, iyy, izz = _inertia(link.mass, link.shape)
    geo = _geometry(link.shape)
    return (
        f'  <link name="{link.name}">\n'
        f'    <inertial><origin xyz="{xyz}"/><mass value="{link.mass}"/>'
        f'<inertia ixx="{ixx:.6g}" iyy="{iyy:.6g}" izz="{izz:.6g}" ixy="0" ixz="0" iyz="0"/></inertial>\n'
        f'    <visual><origin xyz="{xyz}"/><geometry>{geo}</geometry>'
        f'<material name="m_{link.name}"><color rgba="{link.shape.rgba}"/></material></visual>\n'
        f'    <collision><origin xyz="{xyz}"/><geometry>{geo}</geometry></collision>\n'
        f'  </link>\n'
    )


def _joint_xml(joint: JointSpec, servo: ServoSpec) -> str:
    xyz = "{:.5f} {:.5f} {:.5f}".format(*joint.xyz)
    axis = "{:g} {:g} {:g}".format(*servo.axis)
    return (
        f'  <joint name="{joint.servo}" type="revolute">\n'
        f'    <parent link="{joint.parent}"/><child link="{joint.child}"/>\n'
        f'    <origin xyz="{xyz}"/><axis xyz="{axis}"/>\n'
        f'    <limit lower="{servo.lower}" upper="{servo.upper}" effort="{servo.effort}" '
        f'velocity="{servo.max_speed}"/>\n'
        f'  </joint>\n'
    )


@lru_cache(maxsize=1)
def robot_urdf_text() -> str:
    """The robot URDF (one string, built once per process)."""
    links, joints = robot_structure()
    servos = {s.name: s for s in SERVO_TABLE}
    missing = sorted(set(servos) ^ {j.servo for j in joints})
    if missing:
        raise RuntimeError(f"robot joints and servo table disagree on {missing}")
    parts = ['<?xml version="1.0"?>\n<robot name="wmbench_servo_robot">\n']
    parts += [_link_xml(link) for link in links]
    parts += [_joint_xml(j, servos[j.servo]) for j in joints]
    parts.append("</robot>\n")
    return "".join(parts)


def robot_urdf_path() -> Path:
    """A file holding :func:`robot_urdf_text` (content-addressed in the temp dir; written atomically when
    missing, so a cleaned temp dir is refilled)."""
    return write_cached_urdf("robot", robot_urdf_text())


def write_cached_urdf(stem: str, text: str) -> Path:
    """Write ``text`` to ``<tmp>/wmbench_urdf/<stem>_<hash>.urdf`` unless it is already there."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / "wmbench_urdf"
    path = folder / f"{stem}_{digest}.urdf"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    return path
