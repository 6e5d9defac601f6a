package org.mcountkit.api;

/** A backend's verdict on one relocation that names a hook. */
public sealed interface Recognition {

    /** A call site: {@code length} bytes starting at section offset {@code offset}. */
    record Site(long offset, int length) implements Recognition {}

    /** Not a call (the hook's address taken, a jump, unexpected bytes); the reason is reported. */
    record Rejected(String reason) implements Recognition {}

    /**
     * A further relocation of a site that another relocation of the same sequence already marks
     * (the {@code ori} half of nds32's {@code sethi/ori/jral}, say); neither a site nor a problem.
     */
    record PartOfSite() implements Recognition {}

    static Recognition site(long offset, int length) {
        return new Site(offset, length);
    }

    static Recognition rejected(String reason) {
        return new Rejected(reason);
    }

    static Recognition partOfSite() {
        return new PartOfSite();
    }
}
