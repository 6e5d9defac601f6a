package org.mcountkit.core;

import java.util.List;

/**
 * One machine variant a loaded backend handles, as {@code mcountkit backends} lists it.
 *
 * @param name the variant's name in reports ({@code x86_64}, {@code aarch64_be})
 * @param elfMachine {@code e_machine}, with its {@code EM_} name where it is well known
 * @param elfClass {@code ELF32} or {@code ELF64}
 * @param byteOrder {@code little} or {@code big}
 * @param hooks the hook symbols its compilers call, sorted
 * @param tableRelocation the relocation type of a table word ({@code R_X86_64_64})
 * @param rela whether its objects use {@code SHT_RELA} (else {@code SHT_REL})
 * @param backend the backend's short name
 * @param source where the backend was loaded from (its jar or class folder)
 */
public record Machine(
        String name,
        String elfMachine,
        String elfClass,
        String byteOrder,
        List<String> hooks,
        String tableRelocation,
        boolean rela,
        String backend,
        String source) {

    public Machine {
        hooks = List.copyOf(hooks);
    }
}
