package io.sluice.controller.operator;

import io.sluice.common.CreatedDirectories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The secret that operator actions on the controller's HTTP port must carry ({@code Authorization: Bearer
 * <token>}): 32 random bytes in hex, made at each controller start and kept in {@link #FILE_NAME} in the node
 * directory, readable by the controller's user only. {@code sluice drain} and the other actions read it from there,
 * so whoever may read the node's files may act; anyone else who reaches the port may only read metrics and status.
 */
public final class ActionToken
{
    /**
     * The token's file in the node directory.
     */
    public static final String FILE_NAME = "controller.token";

    private static final int BYTES = 32;
    private static final String BEARER = "Bearer ";

    private final Path file;
    private final String token;

    private ActionToken(final Path file, final String token)
    {
        this.file = file;
        this.token = token;
    }

    /**
     * Makes a new token and writes it, owner-only, to the node directory (replacing an older one).
     *
     * @param nodeDirectory the node directory, created when missing.
     * @return the token.
     * @throws IOException when the file cannot be written.
     */
    public static ActionToken create(final Path nodeDirectory) throws IOException
    {
        final byte[] random = new byte[BYTES];
        new SecureRandom().nextBytes(random);
        final String token = HexFormat.of().formatHex(random);
        CreatedDirectories.create(nodeDirectory);
        final Path file = nodeDirectory.resolve(FILE_NAME);
        final Path temporary = Files.createTempFile(nodeDirectory, FILE_NAME, ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try
        {
            Files.writeString(temporary, token + "\n", StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(temporary);
        }
        return new ActionToken(file, token);
    }

    /**
     * Reads the running controller's token from the node directory.
     *
     * @param nodeDirectory the node directory.
     * @return the token.
     * @throws IOException when the file is missing or unreadable.
     */
    public static String read(final Path nodeDirectory) throws IOException
    {
        return Files.readString(nodeDirectory.resolve(FILE_NAME), StandardCharsets.US_ASCII).trim();
    }

    /**
     * Returns the value of an {@code Authorization} header that carries the token.
     *
     * @param token the token.
     * @return {@code Bearer <token>}.
     */
    public static String header(final String token)
    {
        return BEARER + token;
    }

    /**
     * Tells whether an {@code Authorization} header carries this token (compared in constant time).
     *
     * @param authorization the header's value, or null when absent.
     * @return true when it is {@code Bearer <this token>}.
     */
    public boolean admits(final String authorization)
    {
        return authorization != null && MessageDigest.isEqual(
            header(token).getBytes(StandardCharsets.US_ASCII), authorization.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Removes the file if it still holds this token (a newer controller may have replaced it).
     */
    public void delete()
    {
        try
        {
            if (token.equals(Files.readString(file, StandardCharsets.US_ASCII).trim()))
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final NoSuchFileException ex)
        {
            // already gone
        }
        catch (final IOException ex)
        {
            // best effort: the next controller replaces it
        }
    }
}
