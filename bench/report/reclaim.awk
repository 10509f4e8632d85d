# SPDX-License-Identifier: GPL-2.0
#
# The report of bench/reclaim-report.sh: the raw files of bench/reclaim.sh
# (RUN.CONFIG.REP.{rec,out}, trace maps, metadata) in, results.md out; the
# raw files and the verdict rules are described there.  Needs stats.awk
# and runs.awk.  RUN is WORKLOAD-MB-LRU; CONFIG stock, unmap, refs, both
# (trace-CONFIG in the trace phase).

function fmt(x) {
	if (x == "") return "-"
	if (x >= 100) return sprintf("%.1f", x)
	if (x >= 1) return sprintf("%.3f", x)
	return sprintf("%.4f", x)
}
# lru_of(s), wl_of(s): the LRU mode and the workload of run name s
function lru_of(s,   n, a) { n = split(s, a, "-"); return a[n] }
function wl_of(s,   w) { w = s; sub(/-[a-z]+$/, "", w); return w }
# knob(c, k): unmap_batch (k = "u") or referenced_batch ("r") of config c
function knob(c, k) {
	sub(/^trace-/, "", c)
	if (k == "u") return (c == "unmap" || c == "both") ? 1 : 0
	return (c == "refs" || c == "both") ? 1 : 0
}
# csum(s, c, name): sum of a foliotune counter over the runs s.c
function csum(s, c, name,   k, t) {
	t = 0
	for (k = 1; k <= ntag[s, c]; k++) t += cnt[s, c, tag[s, c, k], name]
	return t
}
# cmean(s, c, name): its mean per run ("-" without runs)
function cmean(s, c, name) { return ntag[s, c] ? csum(s, c, name) / ntag[s, c] : "" }
function big(x) { return (x == "") ? "-" : (x >= 100 || x == int(x)) ? sprintf("%.0f", x) : sprintf("%.1f", x) }
# paired(who): P_v in words (the metric is a time: higher is slower)
function paired(who) {
	if (P_v == "higher" || P_v == "lower")
		return who " " ((P_v == "lower") ? "faster" : "slower") sprintf(", p %.3g", P_p)
	return P_v == "" ? "-" : P_t
}
# premise(s, c, t): "" when run s.c.t shows the path its configuration and
# LRU mode must take, else what is missing
function premise(s, c, t,   l, m) {
	l = lru_of(s); m = ""
	if (!hasmod[s, c, t]) return "no foliotune counters"
	# with the knob at 0 the reason counted is "off" in either LRU mode
	# (module/referenced.c: the first match of mlock, hugetlb, small, off,
	# lru_gen, partial)
	if (!knob(c, "r") && cnt[s, c, t, "referenced_nobatch_off"] + 0 == 0) m = m "; referenced_nobatch_off 0"
	if (knob(c, "r") && l == "classic" && cnt[s, c, t, "referenced_batches"] + 0 == 0) m = m "; referenced_batches 0"
	# a module with the batched MGLRU walk counts its runs in
	# referenced_lru_gen_batches; an older one kept MGLRU per PTE
	if (knob(c, "r") && l == "mglru" && ((s, c, t, "referenced_lru_gen_batches") in cnt)) {
		if (cnt[s, c, t, "referenced_lru_gen_batches"] + 0 == 0) m = m "; referenced_lru_gen_batches 0"
	} else if (knob(c, "r") && l == "mglru") {
		if (cnt[s, c, t, "referenced_nobatch_lru_gen"] + 0 == 0) m = m "; referenced_nobatch_lru_gen 0"
		if (cnt[s, c, t, "referenced_batches"] + 0 != 0) m = m "; referenced_batches " cnt[s, c, t, "referenced_batches"] " under MGLRU"
	}
	if (knob(c, "u") && cnt[s, c, t, "unmap_batches"] + 0 == 0) m = m "; unmap_batches 0"
	if (!knob(c, "u") && cnt[s, c, t, "unmap_nobatch_off"] + 0 == 0) m = m "; unmap_nobatch_off 0"
	if (!knob(c, "u") && cnt[s, c, t, "unmap_batches"] + 0 != 0) m = m "; unmap_batches " cnt[s, c, t, "unmap_batches"] " with unmap_batch=0"
	if (!knob(c, "r") && cnt[s, c, t, "referenced_batches"] + 0 != 0) m = m "; referenced_batches with referenced_batch=0"
	if ((s, c, t, "lru_bad") in val) m = m "; " val[s, c, t, "lru_bad"]
	sub(/^; /, "", m)
	return m
}

FNR == 1 { kind = (base(FILENAME) == "note.txt") ? "note" : filekind(FILENAME) }
kind == "skip" { next }
kind == "note" { note = note (note == "" ? "" : " ") $0; next }
kind == "meta" { metaline(); next }
kind == "rec" {
	split($0, fld, "\t")
	if (!addrun(fld[1])) next
	if (fld[2] == "counter" && fld[3] == "foliotune") {
		cnt[S, C, T, fld[4]] = fld[5]; hasmod[S, C, T] = 1
		if (fld[4] == "referenced_lru_gen_batches") lrugen_walk = 1
	}
	else if (fld[2] == "exit_code") val[S, C, T, "exit"] = fld[3]
	else if (fld[2] == "wall_seconds") val[S, C, T, "wall"] = fld[3]
	else if (fld[2] == "command" && !(wl_of(S) in wcmd)) wcmd[wl_of(S)] = fld[3]
	next
}
kind == "out" {
	if ($1 == "reclaim_seconds") val[S, C, T, "metric"] = $2
	else if ($1 == "reclaimed_kb") val[S, C, T, "reclaimed"] = $2
	else if ($1 == "reclaim_request_kb") val[S, C, T, "request"] = $2
	else if ($1 == "lru_gen_before" || $1 == "lru_gen_after") {
		l = lru_of(S); seenlru[S, C, T] = 1
		if ((l == "classic" && $2 != "0x0000") || (l == "mglru" && ($2 == "0x0000" || $2 == "")))
			val[S, C, T, "lru_bad"] = "lru_gen/enabled " $2 " " substr($1, 9) " the run"
	}
	else if ($1 == "record_exit" && $2 != "0") val[S, C, T, "notok"] = "foliotune record exit " $2
	else if ($1 == "#" && $2 == "orders:") {
		k = $0; sub(/^# orders: /, "", k); w = wl_of(S)
		if (!((w, k) in omixseen)) { omixseen[w, k] = 1; omix[w] = omix[w] (omix[w] == "" ? "" : " / ") k }
	}
	else if ($1 == "not" && $2 == "ok") val[S, C, T, "notok"] = $0
	next
}
kind == "bt" {
	# @ref_calls[9]: 13
	# @look_calls[1]: 40 (lru_gen_look_around, keyed by its result)
	if ($1 ~ /^@(ref|unmap|look)_(calls|ns|max_ns)\[/) {
		m = $1; sub(/^@/, "", m); o = m; sub(/\[.*/, "", m); sub(/^[a-z_]*\[/, "", o); sub(/\]:$/, "", o)
		f = m; sub(/_.*/, "", f); sub(/^[a-z]+_/, "", m)
		md = C; sub(/^trace-/, "", md)
		if (m == "max_ns") { if ($2 > bt[S, f, md, o, m]) bt[S, f, md, o, m] = $2 }
		else bt[S, f, md, o, m] += $2
		btord[S, f, o] = 1; hastrace[S] = 1
	}
	next
}

END {
	# run order: the workloads and LRU modes as the guest ran them
	nwl = split(meta["workloads"] " " meta["trace_workloads"], wa, " ")
	nl = split(meta["lru_modes"], la, " ")
	list = ""
	for (i = 1; i <= nwl; i++) {
		w = wa[i]; sub(/:/, "-", w)
		if ((" " list " ") ~ (" " w "-")) continue
		for (j = 1; j <= nl; j++) list = list " " w "-" la[j]
	}
	ns = inorder(substr(list, 2), order, isscen)
	split("stock unmap refs both", cl, " ")

	# ---- statistics: every config's runs, and the pairs CONFIG/stock by rep
	for (i = 1; i <= ns; i++) {
		s = order[i]
		for (j = 1; j <= 4; j++) for (k = 1; k <= ntag[s, cl[j]]; k++) {
			t = tag[s, cl[j], k]
			if ((s, cl[j], t, "metric") in val) st_sample(s "|" cl[j], val[s, cl[j], t, "metric"])
		}
		for (j = 2; j <= 4; j++) for (k = 1; k <= ntag[s, cl[j]]; k++) {
			t = tag[s, cl[j], k]
			if (!((s, "stock", t, "metric") in val) || !((s, cl[j], t, "metric") in val)) continue
			a1 = val[s, "stock", t, "metric"]; a2 = val[s, cl[j], t, "metric"]
			if (a1 == 0) continue
			st_sample("ratio|" s "|" cl[j], a2 / a1)
			st_pair(s "|stock|" cl[j], a1, a2)
		}
	}
	st_run()

	report_head("unmap_batch x referenced_batch, classic LRU and MGLRU")
	print "- guest: kernel " meta["guest_kernel"] ", " meta["guest_cpus"] " vCPUs, MemTotal " int(meta["guest_mem_kb"] / 1024) " MiB, " \
		"read_ahead_kb " meta["read_ahead_kb"] ", THP enabled `" meta["thp_enabled"] "`, lru_gen at boot " meta["lru_gen"] \
		" (restored at the end: " (meta["lru_gen_restored"] != "" ? meta["lru_gen_restored"] : "not recorded") "), swap " meta["swap"]
	print "- parameters: BENCH_REPS=" meta["reps"] ", workloads (NAME:MB) " meta["workloads"] ", LRU modes " meta["lru_modes"] \
		", trace phase: " meta["trace_reps"] " rep(s) of " (meta["trace_workloads"] == "" ? "nothing" : meta["trace_workloads"]) \
		", warm-up " meta["warmup"]
	print "- host load average before/after: " meta["host_loadavg_before"] " / " meta["host_loadavg_after"] \
		"; guest run time " meta["guest_seconds"] " s (timed " meta["timed_phase_seconds"] " s, bpftrace " meta["trace_phase_seconds"] \
		" s; estimated " meta["estimate_seconds"] " s in all); test box exit status " meta["vmrun_exit"]
	print "- method: one boot; configurations stock (unmap_batch=0 referenced_batch=0), unmap (1 0), refs (0 1), both (1 1), " \
		"every run with reclaim_probes=0; per rep, per LRU mode (lru_gen/enabled written and read back; the first mode alternates " \
		"by rep) and workload, the four configurations, odd reps in the order stock unmap refs both, even reps reversed; caches " \
		"dropped and memory compacted before every run; every run wrapped in `foliotune record -l RUN.CONFIG -s unmap_batch=U " \
		"-s referenced_batch=R -s reclaim_probes=0 -o raw/RUN.CONFIG.REP.rec -- CMD` (counter deltas in raw/)"

	if (meta["fatal"] != "") warn("the guest script stopped early: " meta["fatal"])
	if (meta["reps"] != "" && meta["reps"] + 0 < 6)
		warn("BENCH_REPS=" meta["reps"] ": with " meta["reps"] " pairs no difference can be shown at p < 0.05 " \
			"(the exact signed-rank test needs 6; bench/README.md): the paired tests below say so; the medians stand")
	if (meta["vmrun_exit"] != "" && meta["vmrun_exit"] != "0")
		warn("test box exit status " meta["vmrun_exit"] (gate != "" ? ", console: `" gate "`" : "") \
			" (see raw/console.log; 252 = the console gate; BENCH_KERNEL_ARGS=watchdog_thresh=60 on a loaded host)")
	if (meta["trace_warning"] != "") warn(meta["trace_warning"])
	if (meta["trace_error"] != "") warn("trace phase: " meta["trace_error"])
	if (meta["lru_gen_restored"] == "" && meta["guest_seconds"] != "")
		warn("the guest did not record restoring lru_gen/enabled")

	# ---- per-run sanity and premise checks -> warnings, premise[] per s.c
	for (i = 1; i <= ns; i++) {
		s = order[i]
		for (j = 1; j <= 8; j++) {
			c = (j <= 4) ? cl[j] : "trace-" cl[j - 4]
			nbad = 0; why = ""
			for (k = 1; k <= ntag[s, c]; k++) {
				t = tag[s, c, k]
				if (val[s, c, t, "exit"] != "0") warn(s "." c "." t ": benchmark exit status " val[s, c, t, "exit"])
				if ((s, c, t, "notok") in val) warn(s "." c "." t ": " val[s, c, t, "notok"])
				if (!((s, c, t, "metric") in val)) warn(s "." c "." t ": no reclaim_seconds in the output")
				if (val[s, c, t, "request"] > 0 && val[s, c, t, "reclaimed"] < 0.9 * val[s, c, t, "request"])
					warn(s "." c "." t ": reclaimed " val[s, c, t, "reclaimed"] " kB of " val[s, c, t, "request"] " kB requested")
				if (!((s, c, t) in seenlru)) val[s, c, t, "lru_bad"] = "lru_gen/enabled not recorded"
				m = premise(s, c, t)
				if (m != "") { nbad++; if (why == "") why = m }
			}
			if (!ntag[s, c]) continue
			ok[s, c] = nbad ? "**FAIL** " nbad " of " ntag[s, c] " runs: " why : "ok"
			if (nbad) warn("premise: " s "." c ": " nbad " of " ntag[s, c] " runs do not show their path: " why)
		}
		# a run far off the others of its configuration (stats.awk) is named
		for (j = 1; j <= 4; j++) {
			c = cl[j]; st_get(s "|" c); pos = 0
			for (k = 1; k <= ntag[s, c]; k++) {
				t = tag[s, c, k]
				if (!((s, c, t, "metric") in val)) continue
				pos++
				if ((s "|" c, pos) in ST_out)
					warn(s "." c "." t ": reclaim s " val[s, c, t, "metric"] " against a median of " fmt(S_med) " over " S_n \
						" runs: an outlier (host stall?)")
			}
		}
	}
	warnings()

	# ---- main table ----
	print ""
	print "## Reclaim time per configuration " TCG
	print ""
	print "reclaim s = the memory.reclaim write of 80% of the file (ft_reclaim_bench's reclaim_seconds); median and min..max over the reps. " \
		"speedup = median(stock) / median(config); per-rep = min..max of config/stock time within each rep (the runs of a rep are " \
		"neighbours in time); paired test = `foliotune stats` on those pairs (exact Wilcoxon signed-rank test, 95% Hodges-Lehmann " \
		"interval): faster or slower at p < 0.05, else no difference these runs can show (with fewer than 6 pairs none can be). " \
		"premise: every run of the row took its configuration's path in its LRU mode (next table)."
	for (i = 1; i <= ns; i++) {
		s = order[i]
		if (!ntag[s, "stock"] && !ntag[s, "both"]) continue
		if (wl_of(s) != lastw) {
			print ""
			print "### " wl_of(s)
			print ""
			print "| LRU | config | n | median reclaim s | min..max | speedup vs stock | per-rep config/stock | paired test | premise |"
			print "|---|---|---:|---:|---|---:|---|---|---|"
			lastw = wl_of(s)
		}
		st_get(s "|stock"); smed = S_med
		for (j = 1; j <= 4; j++) {
			c = cl[j]; st_get(s "|" c)
			if (S_n == 0) continue
			sp = "-"; pr = "-"; pt = "-"
			if (c != "stock" && smed != "" && S_med > 0) {
				sp = sprintf("%.2fx", smed / S_med)
				st_pv(s "|stock|" c); pt = paired(c)
				nm = "ratio|" s "|" c
				if (nm in ST_n) pr = fmt(ST_min[nm]) ".." fmt(ST_max[nm]) " (" ST_n[nm] ")"
			}
			print "| " lru_of(s) " | " c " | " S_n " | " fmt(S_med) " | " fmt(S_min) ".." fmt(S_max) " | " sp " | " pr " | " pt " | " \
				((s, c) in ok ? ok[s, c] : "-") " |"
		}
	}

	# ---- counters: the premise ----
	print ""
	print "## Paths taken: counters per run (mean over the timed runs) " TCG
	print ""
	print "What each configuration must show (premise, checked per run; a miss is a warning above and FAIL in the tables): " \
		"stock and unmap test large-folio PTEs one by one for the knob (referenced_nobatch_off > 0) in either LRU mode; refs and both " \
		(lrugen_walk ? "batch reference checks under the classic LRU (referenced_batches > 0) and under MGLRU, whose runs call the " \
		"look-around at their young PTEs (referenced_lru_gen_batches > 0); " : \
		"batch reference checks under the classic LRU (referenced_batches > 0) and not under MGLRU, which keeps the per-PTE look-around " \
		"(referenced_nobatch_lru_gen > 0, referenced_batches 0); ") \
		"unmap and both batch the unmap (unmap_batches > 0), stock and refs " \
		"do not (unmap_nobatch_off > 0); lru_gen/enabled read 0x0000 (classic) or not (MGLRU) before and after every run. " \
		"ref o9 / unmap o9: referenced_batch_order9 / unmap_batch_order9 (runs of 512 PTEs)."
	print ""
	print "| run | config | ref calls | ref batches | ref batched PTEs | ref o9 | ref nobatch_off | ref nobatch_lru_gen | unmap batches | unmap o9 | unmap nobatch_off | premise |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	for (i = 1; i <= ns; i++) {
		s = order[i]
		for (j = 1; j <= 4; j++) {
			c = cl[j]
			if (!ntag[s, c]) continue
			print "| " s " | " c " | " big(cmean(s, c, "referenced_calls")) " | " big(cmean(s, c, "referenced_batches")) " | " \
				big(cmean(s, c, "referenced_batched_ptes")) " | " big(cmean(s, c, "referenced_batch_order9")) " | " \
				big(cmean(s, c, "referenced_nobatch_off")) " | " big(cmean(s, c, "referenced_nobatch_lru_gen")) " | " \
				big(cmean(s, c, "unmap_batches")) " | " big(cmean(s, c, "unmap_batch_order9")) " | " \
				big(cmean(s, c, "unmap_nobatch_off")) " | " ok[s, c] " |"
		}
	}
	print ""
	print "Folio orders mapped before reclaim (-R: ORDER:FOLIOS, distinct mixes over the runs separated by /):"
	print ""
	for (i = 1; i <= nwl; i++) {
		w = wa[i]; sub(/:/, "-", w)
		if ((w in omix) && !(w in omixdone)) { omixdone[w] = 1; print "- " w ": " omix[w] }
	}

	# ---- bpftrace: ns per call ----
	hdr = 0
	for (i = 1; i <= ns; i++) {
		s = order[i]
		if (!(s in hastrace)) continue
		if (!hdr) {
			print ""
			print "## Time inside the two replacements per call " TCG
			print ""
			print "bpftrace, `kprobe:` + `kretprobe:` on `foliotune_folio_referenced_one` (ref) and `foliotune_try_to_unmap_one` (unmap), " \
				"the module's replacements (the livepatched originals never run), in trace runs apart from the timed ones (" \
				meta["trace_reps"] " per run and configuration), keyed by the order of the folio passed in (arg0). One call = one folio " \
				"in one VMA: order 9 is one 2 MiB folio. ns/call per configuration; knob/off = the configuration with only that " \
				"function's knob on over stock (ref: refs/stock, unmap: unmap/stock); both/stock likewise. Includes the probes' own cost, " \
				"the same in every configuration."
			print ""
			print "| run | function | folio order | calls (stock) | stock ns/call | unmap ns/call | refs ns/call | both ns/call | knob/off | both/stock |"
			print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
			hdr = 1
		}
		for (fi = 1; fi <= 2; fi++) {
			f = (fi == 1) ? "ref" : "unmap"
			for (o = 0; o <= 15; o++) {
				if (!((s, f, o) in btord)) continue
				line = "| " s " | " f " | " o " | " (bt[s, f, "stock", o, "calls"] + 0)
				for (j = 1; j <= 4; j++) {
					c = cl[j]; n = bt[s, f, c, o, "calls"]
					v[c] = n ? bt[s, f, c, o, "ns"] / n : ""
					line = line " | " (n ? sprintf("%.0f", v[c]) : "-")
				}
				on = (f == "ref") ? "refs" : "unmap"
				line = line " | " ((v["stock"] != "" && v[on] != "" && v["stock"] > 0) ? sprintf("%.3f", v[on] / v["stock"]) : "-")
				line = line " | " ((v["stock"] != "" && v["both"] != "" && v["stock"] > 0) ? sprintf("%.3f", v["both"] / v["stock"]) : "-")
				print line " |"
				if (o == 9 && v["stock"] != "" && v[on] != "" && v["stock"] > 0) o9[s, f] = v[on] / v["stock"]
			}
		}
	}
	if (!hdr && meta["trace_error"] != "") { print ""; print "No bpftrace data: " meta["trace_error"] }

	# ---- bpftrace: share of the reclaim time ----
	if (hdr) {
		print ""
		print "## Share of the reclaim time inside each replacement " TCG
		print ""
		print "share = the time a trace run spent inside the function (all calls, all orders; table above) / that run's reclaim s " \
			"(the memory.reclaim write; above 100% only if other tasks, e.g. kswapd, reclaimed too); summed over the trace reps. " \
			"order-9 knob/off: the order-9 ns/call ratio of the table above (1.000 = no gain per 2 MiB folio)."
		print ""
		print "| run | config | reclaim s (trace runs) | in ref | share ref | in unmap | share unmap | order-9 knob/off ref, unmap |"
		print "|---|---|---:|---:|---:|---:|---:|---|"
		for (i = 1; i <= ns; i++) {
			s = order[i]
			if (!(s in hastrace)) continue
			for (j = 1; j <= 4; j++) {
				c = cl[j]; tc = "trace-" c; tb = 0
				for (k = 1; k <= ntag[s, tc]; k++) tb += val[s, tc, tag[s, tc, k], "metric"]
				rn = 0; un = 0
				for (o = 0; o <= 15; o++) { rn += bt[s, "ref", c, o, "ns"]; un += bt[s, "unmap", c, o, "ns"] }
				if (tb == 0 && rn == 0 && un == 0) continue
				print "| " s " | " c " | " fmt(tb) " | " fmt(rn / 1e9) " s | " (tb > 0 ? sprintf("%.1f%%", 100 * rn / (tb * 1e9)) : "-") \
					" | " fmt(un / 1e9) " s | " (tb > 0 ? sprintf("%.1f%%", 100 * un / (tb * 1e9)) : "-") " | " \
					(((s, "ref") in o9) ? sprintf("%.3f", o9[s, "ref"]) : "-") ", " (((s, "unmap") in o9) ? sprintf("%.3f", o9[s, "unmap"]) : "-") " |"
			}
		}
	}

	# ---- bpftrace: MGLRU's look-around inside the reference walk ----
	lhdr = 0
	for (i = 1; i <= ns; i++) {
		s = order[i]
		if (!(s in hastrace)) continue
		for (j = 1; j <= 4; j++) {
			c = "look-" cl[j]
			l1 = bt[s, "look", c, 1, "calls"]; l0 = bt[s, "look", c, 0, "calls"]
			if (l1 + l0 == 0) continue
			if (!lhdr) {
				print ""
				print "## MGLRU: lru_gen_look_around() inside the reference walk " TCG
				print ""
				print "The kernel's own `lru_gen_look_around()`, which the replacement calls for every PTE under MGLRU " \
					"(bpftrace kprobe + kretprobe in a session of its own, the look runs: their probes fire once per PTE, so " \
					"their reference times are not those of the table above): calls that found the PTE young and looked at up to 64 " \
					"neighbours (young), calls that found it old and returned at once (old), and the share of the reference " \
					"walk's time inside them. The rest of the walk, per PTE, is what a batched MGLRU walk could save."
				print ""
				print "| run | config | ref calls | look-arounds young | ns/call young | look-arounds old | ns/call old | in look-around | in ref | share of ref |"
				print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
				lhdr = 1
			}
			rn = 0; rc = 0
			for (o = 0; o <= 15; o++) { rn += bt[s, "ref", c, o, "ns"]; rc += bt[s, "ref", c, o, "calls"] }
			ln = bt[s, "look", c, 1, "ns"] + bt[s, "look", c, 0, "ns"]
			print "| " s " | " c " | " rc " | " l1 " | " (l1 ? sprintf("%.0f", bt[s, "look", c, 1, "ns"] / l1) : "-") \
				" | " l0 " | " (l0 ? sprintf("%.0f", bt[s, "look", c, 0, "ns"] / l0) : "-") " | " fmt(ln / 1e9) " s | " \
				fmt(rn / 1e9) " s | " (rn > 0 ? sprintf("%.1f%%", 100 * ln / rn) : "-") " |"
		}
	}

	# ---- commands ----
	print ""
	print "## Workloads and exact commands"
	print ""
	print "Each run: `userspace/foliotune record -l RUN.CONFIG -s unmap_batch=U -s referenced_batch=R -s reclaim_probes=0 " \
		"-o raw/RUN.CONFIG.REP.rec -- COMMAND`; the trace runs the same (labels RUN.trace-CONFIG) under one " \
		"`bpftrace -B none raw/reclaim-time.bt > raw/trace-all.bt` session, each run announced by a marker syscall (raw/trace-phases.txt)."
	print ""
	print "- **file2m-MB**: memcg memory.reclaim of 80% of a clean xfs file of MB MiB, MADV_HUGEPAGE (2 MiB folios), " \
		"2 MiB-aligned but PTE-mapped (PR_SET_THP_DISABLE forbids the PMD mapping): every folio is one run of 512 PTEs."
	print "- **filera-MB**: the same with default readahead folios (mixed orders), no MADV_HUGEPAGE: Baolin Wang's workload."
	print ""
	for (i = 1; i <= nwl; i++) {
		w = wa[i]; sub(/:/, "-", w)
		if ((w in wcmd) && !(w in cmddone)) { cmddone[w] = 1; print "- " w ": `" wcmd[w] "`" }
	}
}
