/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu tracepoints: /sys/kernel/tracing/events/numagpu/. @buf is the
 * buffer's creation number; @idx the page; @view a GPU index (collapse:
 * NUMAGPU_MAX_GPUS when no view caused it).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM numagpu

#if !defined(_NUMAGPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NUMAGPU_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(numagpu_fault,
	TP_PROTO(u64 buf, unsigned long idx, unsigned int view, bool write,
		 int nid, bool replica),
	TP_ARGS(buf, idx, view, write, nid, replica),
	TP_STRUCT__entry(
		__field(u64, buf)
		__field(unsigned long, idx)
		__field(unsigned int, view)
		__field(bool, write)
		__field(int, nid)
		__field(bool, replica)
	),
	TP_fast_assign(
		__entry->buf = buf;
		__entry->idx = idx;
		__entry->view = view;
		__entry->write = write;
		__entry->nid = nid;
		__entry->replica = replica;
	),
	TP_printk("buf=%llu idx=%lu view=%u write=%d nid=%d replica=%d",
		  __entry->buf, __entry->idx, __entry->view, __entry->write,
		  __entry->nid, __entry->replica)
);

TRACE_EVENT(numagpu_replicate,
	TP_PROTO(u64 buf, unsigned long idx, unsigned int view, int from,
		 int to, bool zapped),
	TP_ARGS(buf, idx, view, from, to, zapped),
	TP_STRUCT__entry(
		__field(u64, buf)
		__field(unsigned long, idx)
		__field(unsigned int, view)
		__field(int, from)
		__field(int, to)
		__field(bool, zapped)
	),
	TP_fast_assign(
		__entry->buf = buf;
		__entry->idx = idx;
		__entry->view = view;
		__entry->from = from;
		__entry->to = to;
		__entry->zapped = zapped;
	),
	TP_printk("buf=%llu idx=%lu view=%u from=%d to=%d write_revoked=%d",
		  __entry->buf, __entry->idx, __entry->view, __entry->from,
		  __entry->to, __entry->zapped)
);

TRACE_EVENT(numagpu_collapse,
	TP_PROTO(u64 buf, unsigned long idx, unsigned int view,
		 unsigned int nreps),
	TP_ARGS(buf, idx, view, nreps),
	TP_STRUCT__entry(
		__field(u64, buf)
		__field(unsigned long, idx)
		__field(unsigned int, view)
		__field(unsigned int, nreps)
	),
	TP_fast_assign(
		__entry->buf = buf;
		__entry->idx = idx;
		__entry->view = view;
		__entry->nreps = nreps;
	),
	TP_printk("buf=%llu idx=%lu view=%u replicas=%u",
		  __entry->buf, __entry->idx, __entry->view, __entry->nreps)
);

TRACE_EVENT(numagpu_migrate,
	TP_PROTO(u64 buf, unsigned long idx, int from, int to, bool automatic),
	TP_ARGS(buf, idx, from, to, automatic),
	TP_STRUCT__entry(
		__field(u64, buf)
		__field(unsigned long, idx)
		__field(int, from)
		__field(int, to)
		__field(bool, automatic)
	),
	TP_fast_assign(
		__entry->buf = buf;
		__entry->idx = idx;
		__entry->from = from;
		__entry->to = to;
		__entry->automatic = automatic;
	),
	TP_printk("buf=%llu idx=%lu from=%d to=%d auto=%d",
		  __entry->buf, __entry->idx, __entry->from, __entry->to,
		  __entry->automatic)
);

TRACE_EVENT(numagpu_pin,
	TP_PROTO(u64 buf, unsigned long idx, unsigned int events, bool pinned),
	TP_ARGS(buf, idx, events, pinned),
	TP_STRUCT__entry(
		__field(u64, buf)
		__field(unsigned long, idx)
		__field(unsigned int, events)
		__field(bool, pinned)
	),
	TP_fast_assign(
		__entry->buf = buf;
		__entry->idx = idx;
		__entry->events = events;
		__entry->pinned = pinned;
	),
	TP_printk("buf=%llu idx=%lu events=%u pinned=%d",
		  __entry->buf, __entry->idx, __entry->events, __entry->pinned)
);

#endif /* _NUMAGPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE numagpu_trace
#include <trace/define_trace.h>
