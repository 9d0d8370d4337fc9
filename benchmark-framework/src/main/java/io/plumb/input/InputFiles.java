package io.plumb.input;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Reads a file the user named (a workload, a driver file) whole. A missing file and an unreadable
 * one are the user's to fix, so both become the caller's own refusal, one line naming the file, in
 * the caller's words: a driver file's reader says "driver file", a workload's reader just "file".
 */
public final class InputFiles {
  private InputFiles() {}

  /**
   * @param notFound what follows {@code "FILE: "} when the file does not exist
   * @param cannotRead what follows {@code "FILE: "} when it cannot be read, before the reason
   * @param refusal the caller's exception for a message
   */
  public static <E extends Exception> String read(
      Path file, String notFound, String cannotRead, Function<String, E> refusal) throws E {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw refusal.apply(file + ": " + notFound);
    } catch (IOException e) {
      throw refusal.apply(file + ": " + cannotRead + ": " + e.getMessage());
    }
  }

  /**
   * Why a file operation failed, in words rather than an exception's class name, for the line that
   * refuses an output the user named: e.g. {@code Not a directory at results/x}.
   */
  public static String reason(IOException e) {
    if (e instanceof AccessDeniedException denied) {
      return "permission denied at " + denied.getFile();
    }
    if (e instanceof NoSuchFileException missing) {
      return "no such file or directory at " + missing.getFile();
    }
    if (e instanceof FileSystemException fs) {
      return (fs.getReason() != null ? fs.getReason() : "failed") + " at " + fs.getFile();
    }
    return String.valueOf(e.getMessage());
  }
}
