# SPDX-License-Identifier: GPL-2.0
#
# The report of bench/unmap-report.sh: the raw files of bench/unmap.sh
# (BENCH.CONFIG.REP.{rec,out}, trace maps, metadata) in, results.md out;
# the raw files and the verdict rules are described there.  Needs stats.awk
# and runs.awk.

function fmt(x) {
	if (x == "" ) return "-"
	if (x >= 100) return sprintf("%.1f", x)
	if (x >= 1) return sprintf("%.3f", x)
	return sprintf("%.4f", x)
}
function pct(r) { return sprintf("%+.1f%%", (r - 1) * 100) }
# stats(b, c): S_n, S_min, S_med, S_max of the metric of runs b.c (queue(),
# st_get())
function stats(b, c) { st_get(b "|" c) }
# pairs(b, c1, c2): the runs of c1 and c2 of the same rep (one ABBA pair)
# over the reps both have: the per-rep ratios c2/c1 into P_n, P_min, P_max,
# and foliotune stats' paired verdict on c2 against c1 into P_v (higher,
# lower, none, few), P_p and its words P_t
function pairs(b, c1, c2,   nm) {
	st_pv(b "|" c1 "|" c2)
	nm = "ratio|" b "|" c1 "|" c2
	P_n = (nm in ST_n) ? ST_n[nm] : 0
	P_min = P_n ? ST_min[nm] : ""; P_max = P_n ? ST_max[nm] : ""
}
# queue(): the metric of every configuration's runs in rep order, and of
# the pairs stock/batched and nomod/modstock, to foliotune stats (st_run())
function queue(   i, j, k, b, c, t, cl, pl, a1, a2) {
	split("stock batched modstock nomod", cl, " ")
	split("stock batched nomod modstock", pl, " ")
	for (i = 1; i <= nb; i++) {
		b = order[i]
		for (j = 1; j <= 4; j++) for (k = 1; k <= ntag[b, cl[j]]; k++) {
			t = tag[b, cl[j], k]
			if ((b, cl[j], t, "metric") in val) st_sample(b "|" cl[j], val[b, cl[j], t, "metric"])
		}
		for (j = 1; j <= 3; j += 2) for (k = 1; k <= ntag[b, pl[j]]; k++) {
			t = tag[b, pl[j], k]
			if (!((b, pl[j], t, "metric") in val) || !((b, pl[j + 1], t, "metric") in val)) continue
			a1 = val[b, pl[j], t, "metric"]; a2 = val[b, pl[j + 1], t, "metric"]
			if (a1 == 0) continue
			st_sample("ratio|" b "|" pl[j] "|" pl[j + 1], a2 / a1)
			st_pair(b "|" pl[j] "|" pl[j + 1], a1, a2)
		}
	}
	st_run()
}
# paired(hib, who): P_v in words for B = who, faster or slower by the metric
# (hib: higher is better), or foliotune stats' words for no difference
function paired(hib, who) {
	if (P_v == "higher" || P_v == "lower")
		return who " " (((P_v == "higher") == hib) ? "faster" : "slower") sprintf(", p %.3g", P_p)
	return P_v == "" ? "-" : P_t
}
# csum(b, c, name): sum of a foliotune counter over the runs b.c
function csum(b, c, name,   k, s) {
	s = 0
	for (k = 1; k <= ntag[b, c]; k++) s += cnt[b, c, tag[b, c, k], name]
	return s
}

# a run's benchmark is S (runs.awk's addrun())
FNR == 1 { kind = (base(FILENAME) == "note.txt") ? "note" : filekind(FILENAME) }
kind == "skip" { next }
kind == "note" { note = note (note == "" ? "" : " ") $0; next }
kind == "meta" { metaline(); next }
kind == "rec" {
	# ID KEY VALUE, ID knob NAME VALUE, ID counter SOURCE NAME DELTA, ...
	split($0, fld, "\t")
	if (!addrun(fld[1])) next
	if (fld[2] == "counter" && fld[3] == "foliotune") { cnt[S, C, T, fld[4]] = fld[5]; hasmod[S, C, T] = 1 }
	else if (fld[2] == "exit_code") val[S, C, T, "exit"] = fld[3]
	else if (fld[2] == "wall_seconds") val[S, C, T, "wall"] = fld[3]
	else if (fld[2] == "command" && !((S, C) in cmd)) cmd[S, C] = fld[3]
	else if (fld[2] == "module") val[S, C, T, "module"] = fld[3]
	else if (fld[2] == "knob" && fld[3] == "unmap_batch") val[S, C, T, "knob"] = fld[4]
	next
}
kind == "out" {
	if ($1 == "loops_per_sec") { val[S, C, T, "metric"] = $2; metric[S] = "loops/s" }
	else if ($1 == "reclaim_seconds") { val[S, C, T, "metric"] = $2; metric[S] = "reclaim s" }
	else if ($1 == "reclaimed_kb") val[S, C, T, "reclaimed"] = $2
	else if ($1 == "reclaim_request_kb") val[S, C, T, "request"] = $2
	else if ($1 == "#" && $2 == "orders:") {
		k = $0; sub(/^# orders: /, "", k)
		if (!((S, k) in omixseen)) { omixseen[S, k] = 1; omix[S] = omix[S] (omix[S] == "" ? "" : " / ") k }
	}
	else if ($1 == "not" && $2 == "ok") val[S, C, T, "notok"] = $0
	next
}
kind == "bt" {
	# @calls[9]: 13
	if ($1 ~ /^@(calls|ns|max_ns)\[/) {
		m = $1; sub(/^@/, "", m); o = m; sub(/\[.*/, "", m); sub(/^[a-z_]*\[/, "", o); sub(/\]:$/, "", o)
		md = C; sub(/^trace-/, "", md)
		if (m == "max_ns") { if ($2 > bt[S, md, o, m]) bt[S, md, o, m] = $2 }
		else bt[S, md, o, m] += $2
		btord[S, o] = 1; hastrace[S] = 1
	}
	next
}

END {
	nb = inorder("seed filera file2m file2m-shift order0 lazyfree shmem16k shmem64k shmem128k shmem2m shmem2m-pte", order, isscen)
	queue()

	desc["seed"] = "Yin Fengwei's MADV_PAGEOUT micro-benchmark (his 2023 batched rmap series): per vCPU one 2 MiB xfs file, mmap, touch every page, MADV_PAGEOUT, loop; default readahead"
	desc["filera"] = "memcg memory.reclaim of a clean xfs file, mmap MAP_SHARED (PTE-mapped), default readahead (mixed orders)"
	desc["file2m"] = "memcg memory.reclaim of a clean xfs file, MADV_HUGEPAGE (2 MiB folios), 2 MiB-aligned but PTE-mapped (PR_SET_THP_DISABLE forbids the PMD mapping)"
	desc["file2m-shift"] = "as file2m, mapped at 2 MiB-aligned + 64 KiB (not aligned): each 2 MiB folio straddles two page tables (runs of 496 + 16)"
	desc["order0"] = "memcg memory.reclaim of a clean xfs file with read_ahead_kb=0: order-0 folios only"
	desc["lazyfree"] = "anon 64 KiB mTHP (only hugepages-64kB enabled), filled, MADV_FREE, memcg memory.reclaim"
	desc["shmem16k"] = "MAP_SHARED|MAP_ANONYMOUS shmem, only hugepages-16kB/shmem_enabled, filled, memcg memory.reclaim to zram swap"
	desc["shmem64k"] = "as shmem16k with 64 KiB folios"
	desc["shmem128k"] = "as shmem16k with 128 KiB folios"
	desc["shmem2m"] = "as shmem16k with 2 MiB folios; 2 MiB-aligned, so PMD-mapped (reclaim zaps the PMD, no PTE walk)"
	desc["shmem2m-pte"] = "as shmem2m, then MADV_DONTNEED, PR_SET_THP_DISABLE and re-touch: the same 2 MiB folios mapped by 512 PTEs each"
	# known reasons for a case that cannot reach the PTE path
	why["shmem2m"] = " (expected: the folios are PMD-mapped and reclaim removes the PMD mapping in split_huge_pmd_address() " \
		"before any PTE walk, in both modes; shmem2m-pte is the PTE-mapped case)"
	# expected batch-size counter in batched runs ("any" = any order >= 1, "none" = order-0 only)
	expect["seed"] = "any"; expect["filera"] = "any"; expect["file2m"] = "unmap_batch_order9"
	expect["file2m-shift"] = "unmap_batch_order8"; expect["order0"] = "none"; expect["lazyfree"] = "unmap_batch_order4"
	expect["shmem16k"] = "unmap_batch_order2"; expect["shmem64k"] = "unmap_batch_order4"
	expect["shmem128k"] = "unmap_batch_order5"; expect["shmem2m"] = "unmap_batch_order9"
	expect["shmem2m-pte"] = "unmap_batch_order9"

	report_head("batched vs stock try_to_unmap_one")
	print "- guest: kernel " meta["guest_kernel"] ", " meta["guest_cpus"] " vCPUs, MemTotal " int(meta["guest_mem_kb"] / 1024) " MiB, " \
		"read_ahead_kb " meta["read_ahead_kb"] ", THP enabled `" meta["thp_enabled"] "`, lru_gen " meta["lru_gen"] ", swap " meta["swap"]
	print "- parameters: BENCH_REPS=" meta["reps"] ", BENCH_SECONDS=" meta["seconds"] " (seed), BENCH_SIZE_MB=" meta["size_mb"] \
		" (reclaim benchmarks; memory.reclaim of 80%), benchmarks: " meta["only"] "; overhead phase: " meta["overhead"]
	print "- host load average before/after: " meta["host_loadavg_before"] " / " meta["host_loadavg_after"] \
		"; guest run time " meta["guest_seconds"] " s (timed " meta["timed_phase_seconds"] " s, overhead " meta["overhead_phase_seconds"] \
		" s, bpftrace " meta["trace_phase_seconds"] " s); test box exit status " meta["vmrun_exit"]
	print "- method: one boot; per rep and benchmark one stock (unmap_batch=0) and one batched (unmap_batch=1) run, ABBA order " \
		"(odd reps stock first); caches dropped and memory compacted before every run; every run wrapped in " \
		"`foliotune record -l BENCH.CONFIG -s unmap_batch=X -o raw/BENCH.CONFIG.REP.rec -- CMD` (counter deltas in raw/)"
	if (meta["fatal"] != "") warn("the guest script stopped early: " meta["fatal"])
	if (meta["reps"] != "" && meta["reps"] + 0 < 6)
		warn("BENCH_REPS=" meta["reps"] ": with " meta["reps"] " ABBA pairs no difference can be shown at p < 0.05 " \
			"(the exact signed-rank test needs 6; bench/README.md): the paired tests below say so instead of \"no difference\"; the medians stand")
	if (meta["vmrun_exit"] != "" && meta["vmrun_exit"] != "0")
		warn("test box exit status " meta["vmrun_exit"] (gate != "" ? ", console: `" gate "`" : "") \
			" (see raw/console.log; 252 = the console gate; a soft lockup of a starved TCG vCPU on a loaded host can be avoided " \
			"with BENCH_KERNEL_ARGS=watchdog_thresh=60)")

	# ---- per-run sanity and exercised-path checks -> warnings ----
	for (i = 1; i <= nb; i++) {
		b = order[i]
		split("stock batched modstock nomod trace-stock trace-batched", cl, " ")
		for (j = 1; j <= 6; j++) {
			c = cl[j]
			for (k = 1; k <= ntag[b, c]; k++) {
				t = tag[b, c, k]
				if (val[b, c, t, "exit"] != "0") warn(b "." c "." t ": benchmark exit status " val[b, c, t, "exit"])
				if ((b, c, t, "notok") in val) warn(b "." c "." t ": " val[b, c, t, "notok"])
				if (!((b, c, t, "metric") in val)) warn(b "." c "." t ": no result line in the output")
				if (val[b, c, t, "request"] > 0 && val[b, c, t, "reclaimed"] < 0.9 * val[b, c, t, "request"])
					warn(b "." c "." t ": reclaimed " val[b, c, t, "reclaimed"] " kB of " val[b, c, t, "request"] " kB requested")
				if (c == "nomod" && val[b, c, t, "module"] == "loaded") warn(b ".nomod." t ": the module was loaded")
			}
		}
		# a run far off the others of its configuration (stats.awk) is kept
		# in the medians, which it barely moves, and named
		for (j = 1; j <= 4; j++) {
			c = cl[j]; stats(b, c); pos = 0
			for (k = 1; k <= ntag[b, c]; k++) {
				t = tag[b, c, k]
				if (!((b, c, t, "metric") in val)) continue
				x = val[b, c, t, "metric"]
				pos++
				if ((b "|" c, pos) in ST_out)
					warn(b "." c "." t ": " metric[b] " " x " against a median of " fmt(S_med) " over " S_n " runs: an outlier " \
						"(host stall?); per-rep ranges that include it mean nothing")
			}
		}
		if (ntag[b, "batched"] == 0) continue
		bat = csum(b, "batched", "unmap_batches"); calls = csum(b, "batched", "unmap_calls")
		e = expect[b]
		okx = 1
		if (calls == 0) { okx = 0; chk[b] = "NOT EXERCISED: no try_to_unmap_one call" }
		else if (e == "none") {
			if (bat) { okx = 0; chk[b] = "large folios batched in an order-0 case" }
			else if (csum(b, "batched", "unmap_nobatch_small") == 0) { okx = 0; chk[b] = "no order-0 PTE unmapped" }
			else chk[b] = "ok: order-0 only (unmap_nobatch_small)"
		} else if (e == "any") {
			if (bat == 0) { okx = 0; chk[b] = "NOT EXERCISED: no batch (unmap_batches 0)" }
			else chk[b] = "ok: batches of order >= 1"
		} else {
			if (csum(b, "batched", e) == 0) { okx = 0; chk[b] = "NOT EXERCISED: " e " did not move" }
			else chk[b] = "ok: " e " moved"
		}
		if (csum(b, "stock", "unmap_batches") != 0) { okx = 0; chk[b] = chk[b] "; stock runs batched!" }
		if (e != "none" && ntag[b, "stock"] && csum(b, "stock", "unmap_nobatch_off") == 0 && calls > 0) {
			okx = 0; chk[b] = chk[b] "; stock runs did not take the per-PTE large-folio path (unmap_nobatch_off 0)"
		}
		if (!okx) warn(b ": " chk[b] why[b])
		exercised[b] = okx
	}

	warnings()

	# ---- timed runs ----
	print ""
	print "## Timed runs " TCG
	print ""
	print "| benchmark | metric | config | n | min | median | max |"
	print "|---|---|---|---:|---:|---:|---:|"
	for (i = 1; i <= nb; i++) {
		b = order[i]
		split("stock batched modstock nomod", cl, " ")
		for (j = 1; j <= 4; j++) {
			c = cl[j]; stats(b, c)
			if (S_n == 0) continue
			print "| " b " | " metric[b] " | " c " | " S_n " | " fmt(S_min) " | " fmt(S_med) " | " fmt(S_max) " |"
		}
	}

	# ---- ratios ----
	print ""
	print "## Batched vs stock " TCG
	print ""
	print "ratio = median(batched) / median(stock); per-rep = min..max of batched/stock within each ABBA pair; " \
		"speedup = stock time / batched time (loops/s: batched / stock); paired test = `foliotune stats` on the ABBA pairs " \
		"(exact Wilcoxon signed-rank test, 95% Hodges-Lehmann interval): batched faster or slower at p < 0.05, or why no difference is shown " \
		"(with fewer than 6 pairs none can be shown at p < 0.05). The targets are on the ratio; order-0's \"no slowdown beyond noise\" is " \
		"the paired test's."
	print ""
	print "| benchmark | metric | stock median | batched median | ratio | per-rep | speedup | paired test | target | verdict | path check |"
	print "|---|---|---:|---:|---:|---|---:|---|---|---|---|"
	for (i = 1; i <= nb; i++) {
		b = order[i]
		stats(b, "stock"); sn = S_n; smed = S_med; smax = S_max; smin = S_min
		stats(b, "batched"); bn = S_n; bmed = S_med
		if (sn == 0 || bn == 0 || smed == 0 || bmed == 0) continue
		r = bmed / smed
		pairs(b, "stock", "batched")
		pr = P_n ? fmt(P_min) ".." fmt(P_max) " (" P_n ")" : "-"
		hib = (metric[b] == "loops/s")
		sp = hib ? r : 1 / r
		spd[b] = sp
		target = "-"; verdict = "-"
		# thr: threshold on the batched/stock ratio (the per-rep range straddling it is flagged)
		thr = ""
		if (b == "seed") { target = ">= +15% loops/s"; thr = 1.15; verdict = (r >= thr) ? "met" : "not met" }
		else if (b == "file2m") { target = "batched time <= 50% of stock"; thr = 0.5; verdict = (r <= thr) ? "met" : "not met" }
		else if (b == "lazyfree") { target = ">= 2x"; thr = 0.5; verdict = (r <= thr) ? "met" : "not met" }
		else if (b == "order0") {
			target = "no slowdown beyond noise"
			verdict = (P_v == "few" || P_v == "") ? "not shown (" P_n " pairs)" : \
				(((P_v == "higher") != hib && P_v != "none") ? "not met (batched slower)" : "met (no slowdown shown)")
		}
		if (thr != "" && P_n > 1 && P_min < thr && P_max > thr) verdict = verdict " (per-rep range straddles it)"
		if (thr != "" && sn < 2) verdict = verdict " (1 rep)"
		if ((b in exercised) && !exercised[b] && target != "-") verdict = verdict " (path NOT exercised)"
		print "| " b " | " metric[b] " | " fmt(smed) " | " fmt(bmed) " | " sprintf("%.3f", r) " | " pr " | " \
			sprintf("%.2fx", sp) " | " paired(hib, "batched") " | " target " | " verdict " | " ((b in chk) ? chk[b] : "-") " |"
	}

	# ---- overhead ----
	hdr = 0
	for (i = 1; i <= nb; i++) {
		b = order[i]
		stats(b, "nomod"); nn = S_n; nmed = S_med
		stats(b, "modstock"); mn = S_n; mmed = S_med
		if (nn == 0 || mn == 0 || nmed == 0) continue
		if (!hdr) {
			print ""
			print "## Module loaded with unmap_batch=0 vs no module " TCG
			print ""
			print "nomod: module unloaded (livepatch disabled, rmmod) for the run, reloaded after; modstock: loaded, unmap_batch=0. " \
				"ratio = median(modstock) / median(nomod); target: within 1% (towards slower); paired test: `foliotune stats` on the " \
				"runs of the same rep, as above. " \
				"The loaded module costs: the livepatch redirection of try_to_unmap_one and set_pte_range, their counters" \
				(meta["kprobes_with_module"] ~ /[a-z]/ ? "; kprobes registered while it was loaded (armed unless [DISABLED]; every run here sets reclaim_probes=0): `" meta["kprobes_with_module"] "`" : "") "."
			print ""
			print "| benchmark | metric | nomod median | modstock median | ratio | per-rep | paired test | verdict |"
			print "|---|---|---:|---:|---:|---|---|---|"
			hdr = 1
		}
		r = mmed / nmed
		pairs(b, "nomod", "modstock")
		pr = P_n ? fmt(P_min) ".." fmt(P_max) " (" P_n ")" : "-"
		thr = (metric[b] == "loops/s") ? 0.99 : 1.01
		ok = (metric[b] == "loops/s") ? (r >= thr) : (r <= thr)
		verdict = ok ? "met" : "not met"
		if (P_n > 1 && P_max - P_min > 0.02) verdict = verdict " (inconclusive: per-rep spread wider than the 1% target)"
		if (nn < 2) verdict = verdict " (1 rep)"
		print "| " b " | " metric[b] " | " fmt(nmed) " | " fmt(mmed) " | " sprintf("%.3f", r) " | " pr " | " \
			paired(metric[b] == "loops/s", "modstock") " | " verdict " |"
	}

	# ---- folio-order mix ----
	print ""
	print "## Folio-order mix " TCG
	print ""
	print "mapped (-R): ORDER:FOLIOS of the mapping, read from pagemap + kpageflags before reclaim (seed: before the first pageout; " \
		"distinct mixes over all runs separated by /). batched: unmap_batch_order<k> deltas per run (k = ilog2 of the PTE run; " \
		"order0 = large-folio runs of 1 PTE), mean over the batched runs. stock: PTEs of large folios unmapped one by one " \
		"(unmap_nobatch_off) and of order-0 folios (unmap_nobatch_small), per run."
	print ""
	print "| benchmark | mapped (-R) | calls/run | batched: runs by order per run | batched PTEs % | stock: nobatch_off / nobatch_small per run | path check |"
	print "|---|---|---:|---|---:|---|---|"
	for (i = 1; i <= nb; i++) {
		b = order[i]
		nbr = ntag[b, "batched"]; nst = ntag[b, "stock"]
		if (nbr == 0 && nst == 0) continue
		mix = ""
		for (k = 0; k <= 9; k++) {
			s = nbr ? csum(b, "batched", "unmap_batch_order" k) / nbr : 0
			if (s > 0) mix = mix (mix == "" ? "" : " ") "o" k ":" fmt(s)
		}
		bp = csum(b, "batched", "unmap_batched_ptes"); sp1 = csum(b, "batched", "unmap_single_ptes")
		bpp = (bp + sp1) ? sprintf("%.1f%%", 100 * bp / (bp + sp1)) : "-"
		calls = nbr ? fmt(csum(b, "batched", "unmap_calls") / nbr) : "-"
		stk = nst ? fmt(csum(b, "stock", "unmap_nobatch_off") / nst) " / " fmt(csum(b, "stock", "unmap_nobatch_small") / nst) : "-"
		print "| " b " | " (omix[b] == "" ? "-" : omix[b]) " | " calls " | " (mix == "" ? "-" : mix) " | " bpp " | " stk " | " ((b in chk) ? chk[b] : "-") " |"
	}

	# ---- bpftrace ----
	hdr = 0
	for (i = 1; i <= nb; i++) {
		b = order[i]
		if (!(b in hastrace)) continue
		if (!hdr) {
			print ""
			print "## Time inside try_to_unmap_one per call " TCG
			print ""
			print "bpftrace 0.17, `kprobe:` + `kretprobe:foliotune_try_to_unmap_one` (the module replacement; the livepatched " \
				"original never runs), separate runs from the timed ones (" meta["trace_reps"] " per benchmark and mode), " \
				"keyed by the order of the folio passed in (arg0). One call = one folio in one VMA (every folio here is mapped once), " \
				"so ns/call is the time per folio; ns/page = ns/call / 2^order. Includes the kretprobe overhead, equal in both modes."
			print ""
			print "| benchmark | folio order | stock calls | stock ns/call | stock ns/page | batched calls | batched ns/call | batched ns/page | batched/stock |"
			print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
			hdr = 1
		}
		for (o = 0; o <= 15; o++) {
			if (!((b, o) in btord)) continue
			sc = bt[b, "stock", o, "calls"]; sn = bt[b, "stock", o, "ns"]
			bc = bt[b, "batched", o, "calls"]; bn = bt[b, "batched", o, "ns"]
			sv = sc ? sn / sc : ""; bv = bc ? bn / bc : ""
			pg = 2 ^ o
			print "| " b " | " o " | " (sc ? sc : 0) " | " (sc ? sprintf("%.0f", sv) : "-") " | " (sc ? sprintf("%.0f", sv / pg) : "-") \
				" | " (bc ? bc : 0) " | " (bc ? sprintf("%.0f", bv) : "-") " | " (bc ? sprintf("%.0f", bv / pg) : "-") \
				" | " ((sc && bc && sv > 0) ? sprintf("%.3f", bv / sv) : "-") " |"
		}
	}
	if (!hdr && meta["trace_error"] != "") { print ""; print "No bpftrace data: " meta["trace_error"] }

	# ---- what the time inside try_to_unmap_one allows (Amdahl) ----
	hdr = 0
	cpus = (meta["guest_cpus"] != "") ? meta["guest_cpus"] : 1
	for (i = 1; i <= nb; i++) {
		b = order[i]
		if (!(b in hastrace)) continue
		sn = 0; bn = 0
		for (o = 0; o <= 15; o++) { sn += bt[b, "stock", o, "ns"]; bn += bt[b, "batched", o, "ns"] }
		# the time the metric of the benchmark is made of, in the stock trace runs:
		# all vCPUs for the whole run (loops/s), the memory.reclaim write of
		# the one reclaiming thread (reclaim s)
		tb = 0
		for (k = 1; k <= ntag[b, "trace-stock"]; k++) {
			t = tag[b, "trace-stock", k]
			if (metric[b] == "loops/s") tb += val[b, "trace-stock", t, "wall"] * cpus
			else tb += val[b, "trace-stock", t, "metric"]
		}
		if (sn == 0 || bn == 0 || tb == 0) continue
		if (!hdr) {
			print ""
			print "## What batching can gain here: time inside try_to_unmap_one " TCG
			print ""
			print "share = time the stock trace runs spent inside try_to_unmap_one (table above) / the time the metric is made of " \
				"(loops/s: run wall time x " cpus " vCPUs; reclaim s: the memory.reclaim write; above 100% when other tasks, e.g. " \
				"kswapd, unmapped too). batched/stock = the same time in the batched trace runs over that of the stock ones. bound = 1 / (1 - share " \
				"x (1 - batched/stock)): the speedup if nothing but try_to_unmap_one got faster. Both figures include the cost of the bpftrace probes, " \
				"which inflates the share a little."
			print ""
			print "| benchmark | metric | share in try_to_unmap_one (stock) | batched/stock time in it | bound on the speedup | measured speedup (timed runs) |"
			print "|---|---|---:|---:|---:|---:|"
			hdr = 1
		}
		sh = sn / (tb * 1e9); rr = bn / sn
		gain = sh * (1 - rr)
		bound = (gain < 1) ? sprintf("%.2fx", 1 / (1 - gain)) : "-"
		print "| " b " | " metric[b] " | " sprintf("%.1f%%", 100 * sh) " | " sprintf("%.3f", rr) " | " bound " | " \
			((b in spd) ? sprintf("%.2fx", spd[b]) : "-") " |"
	}

	# ---- commands ----
	print ""
	print "## Benchmarks and exact commands"
	print ""
	print "Each run: `userspace/foliotune record -l BENCH.CONFIG -s unmap_batch=0|1 -o raw/BENCH.CONFIG.REP.rec -- COMMAND` " \
		"(nomod: without -s); the trace runs: the same `foliotune record` commands (labels BENCH.trace-MODE) under one `bpftrace -B none raw/unmap-time.bt > raw/trace-all.bt` session, each run announced by a marker syscall (raw/trace-phases.txt)."
	print ""
	for (i = 1; i <= nb; i++) {
		b = order[i]
		c = ((b, "stock") in cmd) ? cmd[b, "stock"] : cmd[b, "nomod"]
		if (c == "") continue
		print "- **" b "**: " desc[b] ".  "
		print "  `" c "`"
	}
}
