// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "ngemu/util/json.h"

static void json_bug(const char *what)
{
	fprintf(stderr, "ngemu: internal error: JSON writer: %s\n", what);
	abort();
}

void ng_json_init(struct ng_json *j, FILE *out, bool pretty)
{
	*j = (struct ng_json){ .out = out, .pretty = pretty };
}

static void newline(struct ng_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Called before every value: separators, and the key rule in objects. */
static void before_value(struct ng_json *j)
{
	if (j->depth == 0)
		return;
	if (j->in_object[j->depth]) {
		if (!j->key_pending)
			json_bug("value without a key in an object");
		j->key_pending = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	newline(j);
}

static void open_container(struct ng_json *j, char c, bool object)
{
	before_value(j);
	if (j->depth + 1 >= NG_JSON_MAX_DEPTH)
		json_bug("nested too deep");
	fputc(c, j->out);
	j->depth++;
	j->need_comma[j->depth] = false;
	j->in_object[j->depth] = object;
}

static void close_container(struct ng_json *j, char c, bool object)
{
	if (j->depth == 0 || j->in_object[j->depth] != object || j->key_pending)
		json_bug("unbalanced end");
	bool had_items = j->need_comma[j->depth];

	j->depth--;
	if (had_items)
		newline(j);
	fputc(c, j->out);
}

void ng_json_object_begin(struct ng_json *j)
{
	open_container(j, '{', true);
}

void ng_json_object_end(struct ng_json *j)
{
	close_container(j, '}', true);
}

void ng_json_array_begin(struct ng_json *j)
{
	open_container(j, '[', false);
}

void ng_json_array_end(struct ng_json *j)
{
	close_container(j, ']', false);
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void ng_json_key(struct ng_json *j, const char *key)
{
	if (j->depth == 0 || !j->in_object[j->depth] || j->key_pending)
		json_bug("key outside an object");
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	newline(j);
	put_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->key_pending = true;
}

void ng_json_string(struct ng_json *j, const char *s)
{
	before_value(j);
	put_string(j->out, s);
}

void ng_json_uint(struct ng_json *j, uint64_t v)
{
	before_value(j);
	fprintf(j->out, "%" PRIu64, v);
}

void ng_json_int(struct ng_json *j, int64_t v)
{
	before_value(j);
	fprintf(j->out, "%" PRId64, v);
}

void ng_json_double(struct ng_json *j, double v)
{
	before_value(j);
	/* JSON has no NaN or infinity */
	if (isfinite(v))
		fprintf(j->out, "%.17g", v);
	else
		fputs("null", j->out);
}

void ng_json_bool(struct ng_json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->out);
}

void ng_json_kv_string(struct ng_json *j, const char *key, const char *s)
{
	ng_json_key(j, key);
	ng_json_string(j, s);
}

void ng_json_kv_uint(struct ng_json *j, const char *key, uint64_t v)
{
	ng_json_key(j, key);
	ng_json_uint(j, v);
}

void ng_json_kv_int(struct ng_json *j, const char *key, int64_t v)
{
	ng_json_key(j, key);
	ng_json_int(j, v);
}

void ng_json_kv_double(struct ng_json *j, const char *key, double v)
{
	ng_json_key(j, key);
	ng_json_double(j, v);
}

void ng_json_kv_bool(struct ng_json *j, const char *key, bool v)
{
	ng_json_key(j, key);
	ng_json_bool(j, v);
}

void ng_json_finish(struct ng_json *j)
{
	if (j->depth != 0)
		json_bug("document ended inside a container");
	fputc('\n', j->out);
}
