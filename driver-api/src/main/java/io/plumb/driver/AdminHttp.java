package io.plumb.driver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a broker's own HTTP endpoint (a monitoring port, a storage node's configuration), for a
 * broker fact the client protocol does not carry. A failure says which URL and why in one line, the
 * form a driver's fact or refusal quotes.
 */
public final class AdminHttp {

  private AdminHttp() {}

  /** Makes a value of one endpoint's answer; throws naming what in it is wrong. */
  @FunctionalInterface
  public interface AnswerReader<T> {
    T read(String body, URI endpoint) throws IOException;
  }

  /**
   * Asks every endpoint in turn for {@code path} ({@code /varz}, resolved against each) and reads
   * each answer, in order, on one client whose connections and requests wait at most {@code
   * timeout}.
   *
   * @throws IOException naming the first endpoint that gave no answer, or whose answer could not be
   *     read
   */
  public static <T> List<T> getEach(
      List<URI> endpoints, String path, Duration timeout, AnswerReader<T> reader)
      throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    List<T> answers = new ArrayList<>();
    for (URI endpoint : endpoints) {
      answers.add(reader.read(get(http, endpoint.resolve(path), timeout), endpoint));
    }
    return answers;
  }

  /**
   * The body of a {@code GET uri} answered with 200.
   *
   * @throws IOException "uri: why" when the endpoint cannot be reached or answers with another
   *     status ("uri: HTTP 404")
   */
  public static String get(HttpClient http, URI uri, Duration timeout)
      throws IOException, InterruptedException {
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(timeout).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException(uri + ": " + firstMessage(e), e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(uri + ": HTTP " + response.statusCode());
    }
    return response.body();
  }

  /** The first message along the causes (the JDK's ConnectException carries its own only there). */
  private static String firstMessage(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return t.getMessage();
      }
    }
    return e.getClass().getSimpleName();
  }
}
