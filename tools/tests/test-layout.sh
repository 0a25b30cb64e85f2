#!/bin/sh
# The source layout's rules (Documentation/layout.rst), checked on the
# tree: files small enough to read, each concern including only what it
# may, public headers self-contained, no code left at the top of
# user/lib. Emits TAP; exit 1 if a check failed. NUMAGPU_TOP=DIR checks
# another tree (used to prove a broken one fails).
set -eu
. "$(dirname "$0")/lib.sh"
top=${NUMAGPU_TOP:-$(cd "$tools/.." && pwd)}
lib=$top/user/lib
echo "TAP version 13"

# 1. no source file over 600 lines (the library, the module, the tests)
long=$(cd "$top" && find user kmod selftests examples tools -name '*.[ch]' \
	-exec wc -l {} + | awk '$2 != "total" && $1 > 600 { print $2 " (" $1 ")" }')
is "no C file of the tree is over 600 lines" "" "$long"

# 2. no code at the top of user/lib: every file in a concern's folder
loose=$(cd "$lib" && find . -maxdepth 1 -type f -name '*.[ch]')
is "user/lib holds folders only" "" "$loose"

# 3. what each concern's files may include besides public headers
#    (ngemu/...) and the system's (<...>): its own folder, and
allowed() {
	case $1 in
	util) echo "util" ;;
	config) echo "config util" ;;
	model) echo "model util" ;;
	backend) echo "backend util" ;;
	runtime) echo "runtime backend util" ;;
	workloads) echo "workloads" ;;
	*) echo "" ;;
	esac
}
bad=""
for dir in "$lib"/*/; do
	concern=$(basename "$dir")
	ok=$(allowed "$concern")
	for f in $(find "$dir" -name '*.[ch]'); do
		for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			case $inc in ngemu/*) continue ;; esac
			first=${inc%%/*}
			hit=0
			for a in $ok; do [ "$first" = "$a" ] && hit=1; done
			[ $hit = 1 ] || bad="$bad ${f#"$top"/}:$inc"
		done
	done
done
is "each concern includes only what it may (the model never the runtime's insides, workloads only the public API)" "" "$bad"

# 4. public headers include only public headers
bad=""
for f in $(find "$top/user/include" -name '*.h'); do
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in ngemu/*) ;; *) bad="$bad ${f#"$top"/}:$inc" ;; esac
	done
done
is "public headers include only public headers" "" "$bad"

# 5. each public header compiles on its own (C11, no _GNU_SOURCE)
bad=""
for f in $(cd "$top/user/include" && find ngemu -name '*.h'); do
	printf '#include "%s"\n' "$f" > "$tmp/one.c"
	if ! cc -std=c11 -Wall -Wextra -Werror -I"$top/user/include" \
		-I"$top/include/uapi" -c -o "$tmp/one.o" "$tmp/one.c" \
		>"$tmp/cc.log" 2>&1; then
		bad="$bad $f"
		diag "$(head -n 5 "$tmp/cc.log")"
	fi
done
is "every public header compiles alone" "" "$bad"

# 6. every workload and component file is in its registry
bad=""
for f in $(cd "$lib/workloads" && find . -mindepth 2 -name '*.c'); do
	name=$(sed -n 's/^const struct ng_workload \(ng_wl_[a-z_0-9]*\) = {/\1/p' "$lib/workloads/$f")
	[ -z "$name" ] && continue
	grep -q "&$name," "$lib/workloads/registry.c" || bad="$bad $f"
done
for f in "$lib"/model/*.c; do
	name=$(sed -n 's/^const struct ng_component \(ng_[a-z_0-9]*\) = {/\1/p' "$f")
	[ -z "$name" ] && continue
	grep -q "&$name," "$lib/model/registry.c" || bad="$bad ${f#"$top"/}"
done
is "every workload and model component is registered" "" "$bad"

# 7. the rules above catch a broken tree: a model file reaching into the
#    runtime, a long file, a loose file, an unregistered workload
if [ -z "${NUMAGPU_TOP:-}" ]; then
	bad_top=$tmp/bad
	mkdir -p "$bad_top/user/lib/model" "$bad_top/user/lib/workloads/x" \
		"$bad_top/user/include/ngemu"
	printf '#include "runtime/system_impl.h"\n' > "$bad_top/user/lib/model/l2.c"
	seq 601 | sed 's/.*/;/' > "$bad_top/user/lib/model/long.c"
	: > "$bad_top/user/lib/loose.c"
	printf 'const struct ng_workload ng_wl_x = {\n' > "$bad_top/user/lib/workloads/x/x.c"
	: > "$bad_top/user/lib/workloads/registry.c"
	: > "$bad_top/user/lib/model/registry.c"
	out=$(NUMAGPU_TOP=$bad_top "$0" 2>&1 || true)
	nbad=$(echo "$out" | grep -c '^not ok' || true)
	is "a broken tree fails four of the checks" 4 "$nbad"
fi

echo "1..$n"
exit $failed
