package io.plumb.remote;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.plumb.stats.Histograms;
import java.io.IOException;
import org.HdrHistogram.Histogram;

/**
 * The JSON of the worker control API, both ends. A histogram travels in HdrHistogram's compressed
 * encoding (base64), which is lossless, so a {@link io.plumb.stats.PeriodStats} crosses the wire as
 * itself and the coordinator merges workers' periods exactly as a local worker's.
 */
final class WireJson {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(
              new SimpleModule("histograms")
                  .addSerializer(Histogram.class, new Encoded())
                  .addDeserializer(Histogram.class, new Decoded()));

  private WireJson() {}

  private static final class Encoded extends StdSerializer<Histogram> {
    Encoded() {
      super(Histogram.class);
    }

    @Override
    public void serialize(Histogram histogram, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      out.writeString(Histograms.encode(histogram));
    }
  }

  private static final class Decoded extends StdDeserializer<Histogram> {
    Decoded() {
      super(Histogram.class);
    }

    @Override
    public Histogram deserialize(JsonParser in, DeserializationContext context) throws IOException {
      return Histograms.decode(in.getValueAsString());
    }
  }
}
