/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ngemu command line inside a program of one's own: its main() hands
 * its arguments and its workloads to ng_main(), and the program is then
 * `ngemu` with those workloads added to the built-in ones:
 *
 *   static const struct ng_workload *const mine[] = { &my_wl, NULL };
 *
 *   int main(int argc, char **argv)
 *   {
 *           return ng_main(argc, argv, mine);
 *   }
 *
 *   ./prog bench my-wl                      verified, with statistics
 *   ./prog bench --compare my-wl            under a paper's systems
 *   ./prog sweep -w my-wl -g gpus=2,4       a grid, each point a child
 *
 * Every command works as ngemu's does (ngemu(1)); sweep's points run as
 * children of the same program (/proc/self/exe), so they know the
 * workloads too. Linked from libngemu-cli.a (`pkg-config --libs ngemu`
 * names it); examples/mykernels.c is a complete program.
 */
#ifndef NGEMU_CLI_H
#define NGEMU_CLI_H

#include "ngemu/workloads/workload.h"

/*
 * Add @workloads (NULL-terminated, may be NULL; kept by reference, see
 * ng_workloads_add()), then run the command @argv names. Returns the
 * process exit status: 0 success, 1 failure (also a @workloads entry
 * ng_workloads_add() refuses, with its message on stderr), 2 usage error.
 */
int ng_main(int argc, char **argv, const struct ng_workload *const *workloads);

#endif /* NGEMU_CLI_H */
