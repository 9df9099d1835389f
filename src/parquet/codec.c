/* Page decompression. The output buffer has the size the page header
 * announces (capped by PQ_MAX_PAGE), every codec is bounded by it, and
 * a page that does not decompress to exactly that size is an error:
 * neither a decompression bomb nor a lying header gets more memory. */
#include "config.h"

#include <brotli/decode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "src/parquet/pq_int.h"

const char *pq_codec_name(int codec)
{
	static const char *const names[] = {
		"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4",
		"ZSTD", "LZ4_RAW"
	};

	return codec >= 0 && codec <= PQ_LZ4_RAW ? names[codec] : "unknown";
}

int pq_codec_supported(int codec)
{
	return codec >= 0 && codec <= PQ_LZ4_RAW && codec != PQ_LZO;
}

static int snappy(const uint8_t *src, size_t n, uint8_t *out, size_t out_n,
		  const char **why)
{
	size_t len;

	if (snappy_uncompressed_length((const char *)src, n, &len) != SNAPPY_OK ||
	    len != out_n) {
		*why = "SNAPPY data announce another size than the page";
		return -1;
	}
	if (snappy_uncompress((const char *)src, n, (char *)out, &len) !=
	    SNAPPY_OK || len != out_n) {
		*why = "bad SNAPPY data";
		return -1;
	}
	return 0;
}

static int gzip(const uint8_t *src, size_t n, uint8_t *out, size_t out_n,
		const char **why)
{
	z_stream z = { 0 };
	int rc;

	/* 15 + 32: a zlib or a gzip header */
	if (inflateInit2(&z, 15 + 32) != Z_OK) {
		*why = "zlib failed to start";
		return -1;
	}
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)out_n;
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.total_out != out_n) {
		*why = rc == Z_STREAM_END || rc == Z_BUF_ERROR
			? "GZIP data decompress to another size than the page"
			: "bad GZIP data";
		return -1;
	}
	return 0;
}

static int brotli(const uint8_t *src, size_t n, uint8_t *out, size_t out_n,
		  const char **why)
{
	size_t len = out_n;

	if (BrotliDecoderDecompress(n, src, &len, out) != BROTLI_DECODER_RESULT_SUCCESS ||
	    len != out_n) {
		*why = "bad BROTLI data, or another size than the page";
		return -1;
	}
	return 0;
}

static int zstd(const uint8_t *src, size_t n, uint8_t *out, size_t out_n,
		const char **why)
{
	unsigned long long want = ZSTD_getFrameContentSize(src, n);
	size_t got;

	if (want == ZSTD_CONTENTSIZE_ERROR ||
	    (want != ZSTD_CONTENTSIZE_UNKNOWN && want > out_n)) {
		*why = "ZSTD data announce more than the page holds";
		return -1;
	}
	got = ZSTD_decompress(out, out_n, src, n);
	if (ZSTD_isError(got) || got != out_n) {
		*why = "bad ZSTD data, or another size than the page";
		return -1;
	}
	return 0;
}

static int lz4_raw(const uint8_t *src, size_t n, uint8_t *out, size_t out_n)
{
	if (n > INT32_MAX || out_n > INT32_MAX)
		return -1;
	return LZ4_decompress_safe((const char *)src, (char *)out, (int)n,
				   (int)out_n) == (int)out_n ? 0 : -1;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Legacy LZ4 is Hadoop's framing: blocks of (big-endian uncompressed
 * size, compressed size, LZ4 block). Some writers put a bare block. */
static int lz4_hadoop(const uint8_t *src, size_t n, uint8_t *out,
		      size_t out_n, const char **why)
{
	size_t in = 0, done = 0;

	while (in + 8 <= n) {	/* empty blocks too: an empty page has one */
		uint32_t raw = be32(src + in), comp = be32(src + in + 4);

		if (raw > out_n - done || comp > n - in - 8 ||
		    lz4_raw(src + in + 8, comp, out + done, raw))
			break;
		in += 8 + comp;
		done += raw;
	}
	if (in == n && done == out_n)
		return 0;
	if (!lz4_raw(src, n, out, out_n))
		return 0;
	*why = "bad LZ4 data, or another size than the page";
	return -1;
}

int pq_decompress(int codec, const uint8_t *src, size_t n, uint8_t *out,
		  size_t out_n, const char **why)
{
	switch (codec) {
	case PQ_UNCOMPRESSED:
		if (n != out_n) {
			*why = "uncompressed page of two different sizes";
			return -1;
		}
		memcpy(out, src, n);
		return 0;
	case PQ_SNAPPY:
		return snappy(src, n, out, out_n, why);
	case PQ_GZIP:
		return gzip(src, n, out, out_n, why);
	case PQ_BROTLI:
		return brotli(src, n, out, out_n, why);
	case PQ_ZSTD:
		return zstd(src, n, out, out_n, why);
	case PQ_LZ4:
		return lz4_hadoop(src, n, out, out_n, why);
	case PQ_LZ4_RAW:
		if (!lz4_raw(src, n, out, out_n))
			return 0;
		*why = "bad LZ4_RAW data, or another size than the page";
		return -1;
	}
	*why = "unsupported codec";
	return -1;
}
