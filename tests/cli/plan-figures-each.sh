#!/bin/sh
# Every figure `storbench plan --figures COMMAND` lists can be judged: for
# quick, run, verify, soak, cliff, pts, flash, latency, meta, sweep and
# info, a plan with a criterion on each listed figure (TEST, JOB, PART,
# RECOVERY, a test's or a job's name, filled in) is accepted, runs, and
# judges each one on the step's result: measured, and passed; only the
# figures the docs say a run may not hold (cliff's drop and recovery when
# there was no drop, flash's erase block and page when --align found
# none, a direction that did nothing, info's health on a device that
# tells none, a meta test's figures of another kind) are missing and
# failed. spo's figures are judged on a result of the corpus (plan-corpus).
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
truncate -s 64M "$T/f.img" || fail "truncate"
dev=$(make_loop 64)

# each: STEP COMMAND-LINE TARGET FILL (FILL: TEMPLATE=NAME,... for the
# figures' TEST, JOB, PART or RECOVERY); quick's and run's runs of 1 s, so
# that a loaded machine still moves data in each (a run of 100 ms that
# moved none has no figures)
cat >"$T/steps" <<EOF
quick|quick --size=8M --runtime=1s --repeat=1|$T/d|TEST=RND4K-Q1T1 TEST=SEQ1M-Q8T1
run|run --rw=randrw --bs=4k --size=4M --runtime=1s --name=j|$T/d|JOB=j
verify|verify --size=4M|$T/d|
soak|soak --iterations=2 --size=2M --direct=0|$T/d|
cliff|cliff --size=32M --recovery=100ms|$T/d|RECOVERY=1
pts|pts --destroy-data --round-time=100ms --max-rounds=5 --bs=4k --mix=0/100 --precondition=none --purge=none --iodepth=4|$dev|PART=iops
flash|flash --align --count=2 --scatter --scatter-order=4 --open-au --erase-size=1M --max-au=2 --offset=4M --destroy-data|$T/f.img|
latency|latency --flood --count=40 --size=1M|$T/d|
meta|meta --files=64 --size=4 --char-size=1 --seeks=64 --seekers=1|$T/d|TEST=write TEST=seeks TEST=seq_create
sweep|sweep --file-sizes=64k --record-sizes=4k --tests=write,read|$T/d|TEST=write
info|info|$T/d|
EOF

python3 - "$SB" "$T" <<'PY' || fail "a plan over every figure"
import json, re, subprocess, sys
sb, t = sys.argv[1], sys.argv[2]
# what a run may not hold, by the docs (docs/plans.md "Figures")
may_miss = {
    'cliff': r'^(cache_bytes|cache_time|before_bw|after_bw|recovered_.*|1\.recovered_.*)$',
    'flash': r'^(erase_block|page|erase_block\.confidence|page\.confidence)$',
    'run': r'^j\.(trim)\.',
    'info': r'^health\.',
    # a block test has .bw, seeks and the file tests .rate
    'meta': r'^(write\.rate|seeks\.bw|seq_create\.bw)$',
    'pts': r'^iops\.steady_state\.average$',
}
plan, expect = [], {}
for line in open(t + '/steps'):
    step, cmd, target, fill = line.rstrip('\n').split('|')
    command = cmd.split()[0]
    out = subprocess.run([sb, 'plan', '--figures', command], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for l in out.split('\n')[1:]:
        if not l.strip():
            break  # the notes on TEST, JOB... follow a blank line
        f = l.split()
        rows.append((f[0], f[1]))
    assert len(rows) > 1, (command, out)
    names = []
    for name, unit in rows:
        tmpl = re.match(r'^(TEST|JOB|PART|RECOVERY)\.', name)
        subs = [v.split('=', 1)[1] for v in fill.split() if tmpl and v.startswith(tmpl.group(1) + '=')]
        if tmpl:
            assert subs, (command, name, 'no fill for', tmpl.group(1))
            names += [(s + name[len(tmpl.group(1)):], unit) for s in subs]
        else:
            names.append((name, unit))
    plan.append('[%s]\nrun = %s\ntarget = %s\n' % (step, cmd, target))
    for name, unit in names:
        if name == 'status':
            continue  # implied: status == pass
        plan.append('expect = %s %s\n' % (name, '!= zzz' if unit == 'word' else '>= 0'))
        expect[(step, name)] = command
open(t + '/each.ini', 'w').write(''.join(plan))
p = subprocess.run([sb, 'plan', '--quiet', t + '/each.ini', t + '/d', '-o', t + '/each.json'],
                   capture_output=True, text=True, cwd=t)
assert p.returncode in (0, 1), (p.returncode, p.stderr)
d = json.load(open(t + '/each.json'))['plan']
seen, bad, absent = set(), [], []
for s in d['steps']:
    assert s['state'] == 'done', (s['step'], s['state'], s.get('why'))
    for c in s['criteria']:
        key = (s['step'], c['figure'])
        if c['figure'] == 'status':
            continue
        seen.add(key)
        command = expect[key]
        missing = c['measured'] is None
        allowed = command in may_miss and re.search(may_miss[command], c['figure'])
        if c['result'] != ('fail' if missing else 'pass') or (missing and not allowed):
            bad.append((s['step'], c['figure'], c['measured'], c['result']))
        elif missing:
            absent.append('%s:%s' % key)
assert seen == set(expect), set(expect) ^ seen
assert not bad, bad
print('%d figures of %d commands judged; missing, as the docs allow: %s'
      % (len(seen), len(d['steps']), ' '.join(absent)))
PY
ok "every figure of every command judged"
