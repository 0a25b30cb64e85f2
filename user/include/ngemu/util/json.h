/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for machine-readable output (--json).
 * It tracks nesting so that callers never place commas by hand; misuse
 * (a value where a key is due, unbalanced ends) is a programming error and
 * aborts with a message.
 */
#ifndef NGEMU_JSON_H
#define NGEMU_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define NG_JSON_MAX_DEPTH 32

struct ng_json {
	FILE *out;
	int depth;
	bool need_comma[NG_JSON_MAX_DEPTH];
	bool in_object[NG_JSON_MAX_DEPTH];
	bool key_pending;
	bool pretty;
};

void ng_json_init(struct ng_json *j, FILE *out, bool pretty);
void ng_json_object_begin(struct ng_json *j);
void ng_json_object_end(struct ng_json *j);
void ng_json_array_begin(struct ng_json *j);
void ng_json_array_end(struct ng_json *j);
/* Inside an object: the key of the next value. */
void ng_json_key(struct ng_json *j, const char *key);
void ng_json_string(struct ng_json *j, const char *s);
void ng_json_uint(struct ng_json *j, uint64_t v);
void ng_json_int(struct ng_json *j, int64_t v);
void ng_json_double(struct ng_json *j, double v);
void ng_json_bool(struct ng_json *j, bool v);
/* A key and its value in one call: the common case inside objects. */
void ng_json_kv_string(struct ng_json *j, const char *key, const char *s);
void ng_json_kv_uint(struct ng_json *j, const char *key, uint64_t v);
void ng_json_kv_int(struct ng_json *j, const char *key, int64_t v);
void ng_json_kv_double(struct ng_json *j, const char *key, double v);
void ng_json_kv_bool(struct ng_json *j, const char *key, bool v);
/* Ends the document with a newline; all containers must be closed. */
void ng_json_finish(struct ng_json *j);

#endif /* NGEMU_JSON_H */
