"""No GPU kernel copies its family's CPU loop (issue 36 point 3, Note [No copied
CPU/GPU loops] in scripts/check_copied_loops.py): the check passes on the tree,
and on a small tree of its own it flags a copied body and passes the same
kernel once it calls a shared rule."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check_copied_loops.py")

CPU = """\
void MomentsCPU(const float* xp, float* mp, int64_t kept, int64_t reduced) {
  for (int64_t o = 0; o < kept; ++o) {
    double s = 0;
    for (int64_t r = 0; r < reduced; ++r) s += static_cast<double>(xp[o * reduced + r]);
    const double m = s / static_cast<double>(reduced);
    double q = 0;
    for (int64_t r = 0; r < reduced; ++r) {
      const double d = static_cast<double>(xp[o * reduced + r]) - m;
      q += d * d;
    }
    mp[o] = static_cast<float>(q);
  }
}
"""

COPIED_GPU = """\
void Moments(const OpContext& ctx, const float* xp, float* mp, int64_t kept, int64_t reduced) {
  Launch(ctx, kept, [=] WEFT_HD(int64_t o) {
    double s = 0;
    for (int64_t r = 0; r < reduced; ++r) s += static_cast<double>(xp[o * reduced + r]);
    const double m = s / static_cast<double>(reduced);
    double q = 0;
    for (int64_t r = 0; r < reduced; ++r) {
      const double d = static_cast<double>(xp[o * reduced + r]) - m;
      q += d * d;
    }
    mp[o] = static_cast<float>(q);
  });
}
"""

SHARED_GPU = """\
void Moments(const OpContext& ctx, const float* xp, float* mp, int64_t kept, int64_t reduced) {
  Launch(ctx, kept, [=] WEFT_HD(int64_t o) { tensor::MomentsAt(xp, mp, o, reduced); });
}
"""


def run(root):
    proc = subprocess.run([sys.executable, SCRIPT, "--root", str(root)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, timeout=120, check=False)
    return proc.returncode, proc.stdout


def write_family(root, gpu_text):
    folder = os.path.join(str(root), "core", "op", "reduce")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "moments_cpu.cc"), "w") as fh:
        fh.write(CPU)
    with open(os.path.join(folder, "moments.cu"), "w") as fh:
        fh.write(gpu_text)


def test_no_gpu_kernel_copies_its_familys_cpu_code():
    rc, out = run(ROOT)
    assert rc == 0, out


def test_a_copied_loop_is_caught_and_a_shared_rule_is_not(tmp_path):
    write_family(tmp_path, COPIED_GPU)
    rc, out = run(tmp_path)
    assert rc == 1, out
    assert "core/op/reduce/moments.cu:2:" in out and "1 copied GPU kernel bodies" in out, out
    write_family(tmp_path, SHARED_GPU)
    rc, out = run(tmp_path)
    assert rc == 0, out


def test_only_the_kernels_own_family_is_compared(tmp_path):
    # The same lines in another family's CPU file are not this kernel's copy: a
    # family's GPU body is compared with its own folder's .cc and .h files only.
    write_family(tmp_path, COPIED_GPU)
    other = os.path.join(str(tmp_path), "core", "op", "softmax")
    os.makedirs(other)
    os.rename(os.path.join(str(tmp_path), "core", "op", "reduce", "moments_cpu.cc"),
              os.path.join(other, "moments_cpu.cc"))
    rc, out = run(tmp_path)
    assert rc == 0, out
