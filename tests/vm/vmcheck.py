"""What tests/vm/compare-* share: the outputs a guest wrote (NAME.out,
NAME.err, NAME.rc, NAME.time under one folder), checks that print one
"ok: ..." or "FAIL: ..." line each, and the SD card's registers decoded
by the SD Physical Layer Specification's layout, independently of
storbench and of the kernel."""
import json
import os
import re


class Checks:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0
        self.failed = 0

    # the guest's files
    def path(self, name):
        return os.path.join(self.folder, name)

    def exists(self, name):
        return os.path.exists(self.path(name))

    def text(self, name):
        """NAME's text: NAME.out for a command's name, else the file NAME"""
        for p in (self.path(name + ".out"), self.path(name)):
            if os.path.isfile(p):
                with open(p, encoding="utf-8", errors="replace") as f:
                    return f.read()
        return ""

    def json(self, name):
        try:
            return json.loads(self.text(name))
        except ValueError:
            return {"storbench": {}, "jobs": []}

    def rc(self, name):
        t = self.text(name + ".rc").strip()
        return int(t) if t else None

    # the checks
    def result(self, what, ok, detail=""):
        self.count += 1
        if ok:
            print(f"ok: {what}")
            return True
        self.failed += 1
        print(f"FAIL: {what}" + (f": {detail}" if detail != "" else ""))
        return False

    def true(self, what, cond, detail=""):
        return self.result(what, bool(cond), detail)

    def eq(self, what, got, want):
        return self.result(what, got == want, f"got {got!r}, expected {want!r}")

    def has(self, what, text, part):
        return self.result(what, part in (text or ""), f"no {part!r} in {(text or '')[:300]!r}")

    def within(self, what, got, want, pct):
        return self.result(what, abs(got - want) <= pct / 100 * max(want, 1),
                           f"{got} is not within {pct}% of {want}")

    def rc_is(self, name, want):
        got = self.rc(name)
        detail = f"exit {got}, expected {want}: {self.text(name + '.err').strip()[-400:]}"
        return self.result(f"{name}: exit {want}", got == want, detail)

    def fast(self, name, secs):
        """NAME ended within SECS of the guest's clock: no command waited out a
        timeout (an eMMC command to an SD card takes the host's data timeout)"""
        t = self.text(name + ".time").split()
        took = float(t[1]) - float(t[0]) if len(t) == 2 else None
        return self.result(f"{name}: at once (under {secs} s)", took is not None and took < secs,
                           f"took {took} s")

    def no_emmc_commands(self, what, trace):
        """No CMD6 (SWITCH), CMD8 (SEND_EXT_CSD), CMD35/36 (ERASE_GROUP) in the
        kernel's mmc_request_start events: the SD card's initialisation is
        over before the trace starts, and its own erase is CMD32/33/38"""
        text = self.text(trace)
        if not text or text.strip() == "none":
            return self.result(what, False, f"no trace ({trace}: no mmc trace events)")
        bad = re.findall(r"cmd_opcode=(6|8|35|36) ", text)
        return self.result(what, not bad, f"commands {sorted(set(bad))} in {trace}")

    def counters(self, name):
        """Bytes read and written by the kernel's count of a disk
        (/sys/block/DISK/stat, sectors of 512 bytes) between NAME.before.stat
        and NAME.after.stat"""
        def read(suffix):
            v = self.text(f"{name}.{suffix}.stat").split()
            return (int(v[2]) * 512, int(v[6]) * 512) if len(v) > 6 else (0, 0)
        (r0, w0), (r1, w1) = read("before"), read("after")
        return r1 - r0, w1 - w0

    # storbench's bytes against the kernel's count. Every command that
    # writes a device first reads its signature (blkid's probe), as info
    # does: what an info reads is taken off the kernel's count.
    def probe(self, name):
        """What storbench info read from the disk (NAME's counters)"""
        r, w = self.counters(name)
        self.true(f"{name}: info reads the signature, writes nothing", w == 0, w)
        return r

    def run_bytes(self, name, probe, engine):
        if not self.rc_is(name, 0):
            return
        jobs = self.json(name)["jobs"]
        self.eq(f"{name}: through {engine}", [j["job options"]["ioengine"] for j in jobs], [engine])
        r = sum(j["read"]["io_bytes"] for j in jobs)
        w = sum(j["write"]["io_bytes"] for j in jobs)
        kr, kw = self.counters(name)
        self.within(f"{name}: bytes read as the kernel counts (less the signature probe)", kr - probe, r, 1)
        self.within(f"{name}: bytes written as the kernel counts", kw, w, 1)

    def verify_bytes(self, name, probe, engine):
        if not self.rc_is(name, 0):
            return
        v = self.json(name)["storbench"]["verify"]
        self.eq(f"{name}: pass through {engine}", (v["result"], v["engine"]), ("pass", engine))
        kr, kw = self.counters(name)
        self.within(f"{name}: bytes checked as the kernel counts (less the signature probe)",
                    kr - probe, v["check"]["bytes"], 1)
        self.within(f"{name}: bytes written as the kernel counts", kw, v["write"]["bytes"], 1)

    def quick_bytes(self, name, engine):
        """quick reports its measured runs, not their warm-ups: the kernel
        counts at least what it reports"""
        if not self.rc_is(name, 0):
            return
        d = self.json(name)
        queued = {j["job options"]["ioengine"] for j in d["jobs"]} - {"psync"}
        self.true(f"{name}: its queued tests through {engine}", queued <= {engine}, queued)
        r = sum(j["read"]["io_bytes"] for j in d["jobs"])
        w = sum(j["write"]["io_bytes"] for j in d["jobs"])
        kr, kw = self.counters(name)
        self.true(f"{name}: the kernel counts at least the bytes reported", kr >= r > 0 and kw >= w > 0,
                  f"read {kr} >= {r}, written {kw} >= {w}")
        self.eq(f"{name}: every test measured", len(d["storbench"]["summary"]), 8)

    def sd_identity(self, prefix, dev, sysfs_name):
        """An SD card's storbench info device section against the card's
        sysfs files and its CID and CSD decoded here"""
        sysfs = dict(l.split("=", 1) for l in self.text(sysfs_name).splitlines() if "=" in l)
        mmc = dev["mmc"]
        for key in ("cid", "csd", "name", "date", "serial", "hwrev", "fwrev", "type"):
            self.eq(f"{prefix}: {key} as sysfs", mmc[key], sysfs.get(key))
        for key in ("manfid", "oemid"):
            self.eq(f"{prefix}: {key} as sysfs", int(mmc[key], 16), int(sysfs.get(key, "-1"), 16))
        cid = decode_sd_cid(sysfs.get("cid", "0"))
        self.eq(f"{prefix}: manufacturer as the CID's MID", int(mmc["manfid"], 16), cid["mid"])
        self.eq(f"{prefix}: OEM as the CID's OID", int(mmc["oemid"], 16), cid["oid"])
        self.eq(f"{prefix}: name as the CID's PNM", dev["model"], cid["pnm"])
        self.eq(f"{prefix}: date as the CID's MDT", mmc["date"], cid["date"])
        self.eq(f"{prefix}: serial as the CID's PSN", int(dev["serial"], 16), cid["psn"])
        self.eq(f"{prefix}: capacity as the CSD's", dev["capacity"], sd_csd_capacity(sysfs.get("csd", "0")))
        self.eq(f"{prefix}: transport", dev["transport"], "sd")

    def summary(self):
        print(f"{self.count} checks, {self.failed} failed")
        return 1 if self.failed else 0


def bits(hexstr, hi, lo):
    """Bits hi..lo of a 128-bit register printed as 32 hex digits"""
    v = int(hexstr, 16)
    return (v >> lo) & ((1 << (hi - lo + 1)) - 1)


def decode_sd_cid(cid):
    """An SD card's CID (SD Physical Layer Specification 5.2)"""
    pnm = bits(cid, 103, 64).to_bytes(5, "big").decode("ascii", "replace")
    mdt = bits(cid, 19, 8)
    return {
        "mid": bits(cid, 127, 120),
        "oid": bits(cid, 119, 104),
        "pnm": pnm,
        "prv": bits(cid, 63, 56),
        "psn": bits(cid, 55, 24),
        "date": f"{mdt & 0xf:02d}/{2000 + (mdt >> 4)}",
    }


def sd_csd_capacity(csd):
    """Bytes of an SD card by its CSD (5.3.2 version 1.0, 5.3.3 version 2.0)"""
    if bits(csd, 127, 126) == 0:
        block_len = 1 << bits(csd, 83, 80)
        mult = 1 << (bits(csd, 49, 47) + 2)
        return (bits(csd, 73, 62) + 1) * mult * block_len
    return (bits(csd, 69, 48) + 1) * 512 * 1024
