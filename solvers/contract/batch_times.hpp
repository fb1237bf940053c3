#pragma once
// Where a batched march's time went (march_book): host set-up (problems, plans, images), uploads,
// the device march (CUDA events), downloads. A book's results sum them over its batches.
namespace elsbench {

struct BatchTimes {
  double setup = 0, upload = 0, march = 0, download = 0;

  BatchTimes& operator+=(const BatchTimes& o) {
    setup += o.setup;
    upload += o.upload;
    march += o.march;
    download += o.download;
    return *this;
  }
};

}  // namespace elsbench
