package org.mcountkit.kernelcheck;

import java.util.List;

/**
 * One row of {@code machines.conf}: how to configure, build and boot a kernel for one ARCH of
 * {@code bin/kernel-check} (the bash version's per-ARCH {@code case} block).
 */
public record Machine(
        String arch,
        String karch,
        String cross,
        String nativeHost,
        String compilerPackage,
        List<String> enable,
        List<String> disable,
        String qemuPackage,
        List<String> qemu,
        String image,
        String console,
        String append,
        int word,
        boolean stopAtPanic,
        String busyboxArch,
        String perLinkRecipe) {

    /** CROSS_COMPILE on a host whose {@code uname -m} is {@code host}: none on the native host. */
    public String crossOn(String host) {
        return host.equals(nativeHost) ? "" : cross;
    }

    /** The Debian package of the compiler on {@code host}. */
    public String compilerPackageOn(String host) {
        return host.equals(nativeHost) ? "gcc" : compilerPackage;
    }

    /** The Debian architecture of the busybox-static that runs on this machine; fails when Debian 12 has none. */
    public String requireBusyboxArch() {
        if (busyboxArch.isEmpty()) {
            throw new KernelCheckException("no Debian architecture for " + karch
                    + "'s busybox-static (Debian 12 has none for big-endian MIPS, powerpc or sparc64)");
        }
        return busyboxArch;
    }

    /** The patch --per-link builds with, relative to the checkout: docs/RECIPE.patch. */
    public String perLinkPatch() {
        return "docs/" + perLinkRecipe + ".patch";
    }

    /**
     * True when --per-link makes the table after the first kallsyms link (docs/post-link.patch:
     * powerpc64, whose vmlinux does not link from vmlinux.o) instead of recording vmlinux.o.
     */
    public boolean postLink() {
        return perLinkRecipe.equals("post-link");
    }
}
