#!/bin/sh
# Kernel coding style, as a TAP test per file: checkpatch.pl (extracted
# from linux-source-6.1 by kernel-files.sh) must report no errors and no
# warnings, for kmod/ and the uapi header, and for user/ (the library, the
# CLI, the papers, the tests) with the checks listed below left out.
#
# kmod/numagpu_compat.h is the one file meant to test LINUX_VERSION_CODE
# (an out-of-tree module builds for several kernels); that warning, and the
# constant-on-the-left one its #if lines raise, are not reported there.
#
# user/ is C11 user space, not the kernel. Left out there:
#  - the kernel's own helpers, which user space has not: ARRAY_SIZE,
#    PREFER_DEFINED_ATTRIBUTE_MACRO (__printf, __packed), NAKED_SSCANF (its
#    rule is about kernel sscanf), VOLATILE (sig_atomic_t flags and
#    setjmp's locals must be volatile), STATIC_CONST_CHAR_ARRAY (argv
#    vectors for the commands are arrays of char *);
#  - the registries, a line each, declare their entries in the .c file
#    that lists them (AVOID_EXTERNS);
#  - what checkpatch misreads in C11 and in the X-macro lists: LINE_SPACING
#    (_Atomic, _Alignas and restrict declarations), STATIC_CONST (a
#    function returning a pointer to const), COMPLEX_MACRO,
#    MACRO_WITH_FLOW_CONTROL, MULTISTATEMENT_MACRO_USE_DO_WHILE,
#    TRAILING_SEMICOLON, RETURN_PARENTHESES, BRACKET_SPACE and
#    CONSTANT_COMPARISON (designated initializers, getters and
#    _Static_assert inside macros), EMBEDDED_FUNCTION_NAME and
#    EMBEDDED_FILENAME (a word in a message that is also a name),
#    SPLIT_STRING (help texts are split at their lines);
#  - in user/tests/ only: SPACING (the harness's FIXTURE_DATA(x) *self
#    reads as a multiplication).
# Usage: check-style.sh KERNEL_FILES_DIR
set -eu
kfiles=${1:?usage: check-style.sh KERNEL_FILES_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cp="$kfiles/scripts/checkpatch.pl"
[ -f "$cp" ] || { echo "check-style: $cp missing" >&2; exit 1; }

user_ignore=ARRAY_SIZE,PREFER_DEFINED_ATTRIBUTE_MACRO,NAKED_SSCANF,VOLATILE
user_ignore=$user_ignore,STATIC_CONST_CHAR_ARRAY,AVOID_EXTERNS,LINE_SPACING
user_ignore=$user_ignore,STATIC_CONST,COMPLEX_MACRO,MACRO_WITH_FLOW_CONTROL
user_ignore=$user_ignore,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
user_ignore=$user_ignore,RETURN_PARENTHESES,BRACKET_SPACE,CONSTANT_COMPARISON
user_ignore=$user_ignore,EMBEDDED_FUNCTION_NAME,EMBEDDED_FILENAME,SPLIT_STRING

kernel=$(cd "$top" && ls kmod/*.c kmod/*.h include/uapi/linux/*.h)
user=$(cd "$top" && find user -name '*.[ch]' | LC_ALL=C sort)
n=$(printf '%s\n%s\n' "$kernel" "$user" | wc -l)
echo "TAP version 13"
echo "1..$n"
i=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# report "FILE" from checkpatch's output for it in $tmp/out
report() {
	i=$((i + 1))
	sed 's/^/# /' "$tmp/out"
	if grep -q 'total: 0 errors, 0 warnings' "$tmp/out"; then
		echo "ok $i checkpatch: $1"
	else
		echo "not ok $i checkpatch: $1"
		fail=1
	fi
}

for f in $kernel; do
	ignore=""
	[ "$f" != kmod/numagpu_compat.h ] ||
		ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON"
	# shellcheck disable=SC2086 # $ignore is two words or none
	(cd "$top" && perl "$cp" --no-tree --show-types $ignore -f "$f") \
		> "$tmp/out" 2>&1 || true
	report "$f"
done

# user/ in two runs of checkpatch (its start-up is most of a small file's
# time), each file's part of the output cut at its total line
for f in $user; do
	case $f in
	user/tests/*) echo "$f" >> "$tmp/tests" ;;
	*) echo "$f" >> "$tmp/lib" ;;
	esac
done
for part in lib tests; do
	ignore=$user_ignore
	[ "$part" = lib ] || ignore=$ignore,SPACING
	# shellcheck disable=SC2046 # one file name a word
	(cd "$top" && perl "$cp" --no-tree --show-types --ignore "$ignore" \
		-f $(cat "$tmp/$part")) > "$tmp/all" 2>&1 || true
	: > "$tmp/out"
	exec 3< "$tmp/$part"
	while IFS= read -r line; do
		echo "$line" >> "$tmp/out"
		case $line in
		total:*)
			IFS= read -r f <&3 || f="(checkpatch said more than asked)"
			report "$f"
			: > "$tmp/out"
			;;
		esac
	done < "$tmp/all"
	exec 3<&-
done
[ "$i" -eq "$n" ] || {
	echo "not ok $n checkpatch: $((n - i)) files without a verdict"
	fail=1
}
exit $fail
