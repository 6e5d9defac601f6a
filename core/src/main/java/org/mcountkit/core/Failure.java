package org.mcountkit.core;

/**
 * Why an input could not be processed, as a program embedding mcountkit would branch on it; the
 * exception's or outcome's message says the particulars in one line.
 */
public enum Failure {
    /** The path names nothing. */
    NO_SUCH_FILE,
    /** A directory, FIFO, device or socket: not a regular file. */
    NOT_A_FILE,
    /** The file or a directory on its path cannot be read. */
    UNREADABLE,
    /** Not an ELF file at all (LLVM bitcode among them). */
    NOT_ELF,
    /** An ELF file whose headers, tables or indexes are damaged or hostile. */
    MALFORMED,
    /** No backend takes the file's machine, or two do. */
    UNSUPPORTED_MACHINE,
    /** The command does not take this kind of ELF file (record wants an object, verify a linked image). */
    WRONG_FILE_TYPE,
    /** The file's sites are not fit for the command (errors found, a site that cannot be encoded, no call target). */
    UNUSABLE_SITES,
    /** Inputs that cannot go into one result (table inputs of two machines). */
    MIXED_INPUTS,
    /** The result cannot be written: read-only file or directory, full disk, I/O error. */
    UNWRITABLE,
    /** A plugin directory that cannot be used. */
    BAD_PLUGIN_PATH,
    /** The file changed while it was being read. */
    CHANGED_WHILE_READ,
    /** The JVM's heap was too small for this file: a larger one (-Xmx) reads it. */
    OUT_OF_MEMORY,
    /** A bug in mcountkit: the message says where. */
    INTERNAL
}
