# SPDX-License-Identifier: GPL-2.0
#
# Loaded first by the programs of the benchmark reports (report.sh: awk -v
# ft=FOLIOTUNE -v sttmp=FILE -f stats.awk -f runs.awk -f NAME.awk): they
# compute no statistics of their own.  Medians, quartiles, min..max,
# the outlier rule (4x off the median, with 3 values or more) and the
# paired verdicts come from `foliotune analyze` (userspace/util/statistics.c, the
# code of `foliotune ab`): one home for them.
#
# st_sample(name, x): one value of sample NAME, in order (outliers are named
# by position); st_pair(name, a, b): one pair of NAME (B against A).
# st_run(): run foliotune stats on all of them and load, per NAME:
#   samples: ST_n, ST_med, ST_q1, ST_q3, ST_min, ST_max, ST_out[NAME, POS]
#   pairs:   PV_n, PV_est (B/A or B-A), PV_lo, PV_hi, PV_p, PV_v (higher,
#            lower, none or few: fewer than 6 differing pairs) and PV_t,
#            the verdict in words.
# st_get(name): S_n, S_min, S_med, S_max of sample NAME (0 and "" when it has
# none); returns S_med.  st_pv(name): P_v, P_p, P_t, P_n of pairs NAME (""
# and 0 when it has none); returns P_v.
function st_sample(name, x) { ST_in[++ST_nin] = name " " sprintf("%.17g", x) }
function st_pair(name, a, b) { ST_in[++ST_nin] = name " " sprintf("%.17g %.17g", a, b) }
function st_run(   cmd, i, l, f, o, n, got) {
	if (!ST_nin) return
	cmd = "'" ft "' analyze > '" sttmp "'"
	for (i = 1; i <= ST_nin; i++) print ST_in[i] | cmd
	close(cmd)
	got = 0
	while ((getline l < sttmp) > 0) {
		if (l ~ /^#/) continue
		split(l, f, "\t"); got++
		if (f[2] == "samples") {
			ST_n[f[1]] = f[3] + 0; ST_med[f[1]] = f[4] + 0; ST_q1[f[1]] = f[5] + 0
			ST_q3[f[1]] = f[6] + 0; ST_min[f[1]] = f[7] + 0; ST_max[f[1]] = f[8] + 0
			n = split(f[9], o, ",")
			for (i = 1; i <= n; i++) if (o[i] != "-") ST_out[f[1], o[i] + 0] = 1
		} else {
			PV_n[f[1]] = f[3] + 0; PV_est[f[1]] = f[7] + 0; PV_lo[f[1]] = f[8] + 0
			PV_hi[f[1]] = f[9] + 0; PV_p[f[1]] = f[10] + 0; PV_v[f[1]] = f[11]; PV_t[f[1]] = f[12]
		}
	}
	close(sttmp)
	if (!got) {
		print "stats.awk: no output from " cmd > "/dev/stderr"
		exit 2
	}
	ST_nin = 0
	delete ST_in
}
function st_get(name) {
	if (!(name in ST_n)) { S_n = 0; S_min = S_max = S_med = ""; return "" }
	S_n = ST_n[name]; S_min = ST_min[name]; S_max = ST_max[name]; S_med = ST_med[name]
	return S_med
}
function st_pv(name) {
	P_v = (name in PV_v) ? PV_v[name] : ""; P_p = (name in PV_p) ? PV_p[name] : ""
	P_t = (name in PV_t) ? PV_t[name] : ""; P_n = (name in PV_n) ? PV_n[name] : 0
	return P_v
}
