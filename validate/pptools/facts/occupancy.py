"""NVIDIA's theoretical occupancy of a kernel: resident blocks and warps per SM
from its registers, static shared memory and block size, per architecture."""

SM_LIMITS = {"sm_70": (64, 32, 65536, 96 * 1024), "sm_75": (32, 16, 65536, 64 * 1024),
             "sm_80": (64, 32, 65536, 164 * 1024), "sm_86": (48, 16, 65536, 100 * 1024),
             "sm_89": (48, 24, 65536, 100 * 1024), "sm_90": (64, 32, 65536, 228 * 1024)}


def occupancy(arch, regs, smem, threads):
    """Resident blocks and warps per SM of a kernel with `regs` registers per
    thread and `smem` bytes of static shared memory, launched with blocks of
    `threads` threads (dynamic shared memory not counted): {"blocks",
    "warps", "fraction", "limit"}, or None where the arch or a figure is
    unknown."""
    lim = SM_LIMITS.get(arch)
    if not lim or not regs or not threads:
        return None
    max_warps, max_blocks, sm_regs, sm_smem = lim
    warps = -(-threads // 32)
    per_warp = -(-regs * 32 // 256) * 256
    reserve = 1024 if int(arch[3:]) >= 80 else 0
    by = {"threads": max_warps // warps, "blocks": max_blocks,
          "registers": (sm_regs // per_warp) // warps,
          "shared memory": sm_smem // ((smem or 0) + reserve) if (smem or 0) + reserve else max_blocks}
    order = ("threads", "blocks", "registers", "shared memory")  # a tie names the hardware cap first
    limit = min(by, key=lambda k: (by[k], order.index(k)))
    blocks = by[limit]
    return {"blocks": blocks, "warps": blocks * warps, "fraction": blocks * warps / max_warps, "limit": limit}


def block_threads(mt):
    """Threads per block of a .maxntid/.reqntid/launch-bounds figure: int or [x, y, z]."""
    if isinstance(mt, list):
        n = 1
        for x in mt:
            n *= x
        return n
    return mt
