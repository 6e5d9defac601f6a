/* SPDX-License-Identifier: GPL-2.0 */
int kcweak_pick(int x);
int kcweak_use(int x);
