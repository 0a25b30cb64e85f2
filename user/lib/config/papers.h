/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The papers ngemu reproduces, one line each, in the command line's order
 * (help texts, listings, suites, `ngemu reproduce all`). Each is a folder,
 * user/papers/NAME/: its machine, preset.c (ng_preset_NAME, the library's
 * --system NAME, lib/config/presets.c), and the rest of it, NAME.c
 * (ng_paper_NAME, the command line's, papers/registry.c). Adding a paper is
 * that folder and its X(NAME) here.
 */
#ifndef NGEMU_LIB_CONFIG_PAPERS_H
#define NGEMU_LIB_CONFIG_PAPERS_H

#define NG_PAPERS(X) X(carve) X(rec) X(dualopt) X(scalegpu) X(coda)

#endif /* NGEMU_LIB_CONFIG_PAPERS_H */
