// Every transcendental the elemental generator has, in each float type the
// gpu backend compiles (used by ptx.test and ptxas.test: no RUN lines here).
func.func @main(%x: tensor<256xf32>, %y: tensor<256xf32>, %d: tensor<256xf64>, %h: tensor<256xf16>, %b: tensor<256xbf16>) -> (tensor<256xf32>, tensor<256xf64>, tensor<256xf16>, tensor<256xbf16>) {
  %e = stablehlo.exponential %x : tensor<256xf32>
  %em = stablehlo.exponential_minus_one %x : tensor<256xf32>
  %l = stablehlo.log %y : tensor<256xf32>
  %l1 = stablehlo.log_plus_one %y : tensor<256xf32>
  %t = stablehlo.tanh %x : tensor<256xf32>
  %lg = stablehlo.logistic %x : tensor<256xf32>
  %s = stablehlo.sine %x : tensor<256xf32>
  %c = stablehlo.cosine %x : tensor<256xf32>
  %tn = stablehlo.tan %x : tensor<256xf32>
  %cb = stablehlo.cbrt %x : tensor<256xf32>
  %sq = stablehlo.sqrt %y : tensor<256xf32>
  %rs = stablehlo.rsqrt %y : tensor<256xf32>
  %at = stablehlo.atan2 %x, %y : tensor<256xf32>
  %pw = stablehlo.power %y, %x : tensor<256xf32>
  %a0 = stablehlo.add %e, %em : tensor<256xf32>
  %a1 = stablehlo.add %a0, %l : tensor<256xf32>
  %a2 = stablehlo.add %a1, %l1 : tensor<256xf32>
  %a3 = stablehlo.add %a2, %t : tensor<256xf32>
  %a4 = stablehlo.add %a3, %lg : tensor<256xf32>
  %a5 = stablehlo.add %a4, %s : tensor<256xf32>
  %a6 = stablehlo.add %a5, %c : tensor<256xf32>
  %a7 = stablehlo.add %a6, %tn : tensor<256xf32>
  %a8 = stablehlo.add %a7, %cb : tensor<256xf32>
  %a9 = stablehlo.add %a8, %sq : tensor<256xf32>
  %a10 = stablehlo.add %a9, %rs : tensor<256xf32>
  %a11 = stablehlo.add %a10, %at : tensor<256xf32>
  %a12 = stablehlo.add %a11, %pw : tensor<256xf32>
  %de = stablehlo.exponential %d : tensor<256xf64>
  %dl = stablehlo.log %d : tensor<256xf64>
  %dt = stablehlo.tanh %d : tensor<256xf64>
  %ds = stablehlo.sine %d : tensor<256xf64>
  %dc = stablehlo.cosine %d : tensor<256xf64>
  %dg = stablehlo.logistic %d : tensor<256xf64>
  %d0 = stablehlo.add %de, %dl : tensor<256xf64>
  %d1 = stablehlo.add %d0, %dt : tensor<256xf64>
  %d2 = stablehlo.add %d1, %ds : tensor<256xf64>
  %d3 = stablehlo.add %d2, %dc : tensor<256xf64>
  %d4 = stablehlo.add %d3, %dg : tensor<256xf64>
  %he = stablehlo.exponential %h : tensor<256xf16>
  %ht = stablehlo.tanh %h : tensor<256xf16>
  %hs = stablehlo.sine %h : tensor<256xf16>
  %hl = stablehlo.log %h : tensor<256xf16>
  %hp = stablehlo.power %h, %h : tensor<256xf16>
  %h0 = stablehlo.add %he, %ht : tensor<256xf16>
  %h1 = stablehlo.add %h0, %hs : tensor<256xf16>
  %h2 = stablehlo.add %h1, %hl : tensor<256xf16>
  %h3 = stablehlo.maximum %h2, %hp : tensor<256xf16>
  %be = stablehlo.exponential %b : tensor<256xbf16>
  %bt = stablehlo.tanh %b : tensor<256xbf16>
  %bc = stablehlo.cosine %b : tensor<256xbf16>
  %b0 = stablehlo.add %be, %bt : tensor<256xbf16>
  %b1 = stablehlo.minimum %b0, %bc : tensor<256xbf16>
  return %a12, %d4, %h3, %b1 : tensor<256xf32>, tensor<256xf64>, tensor<256xf16>, tensor<256xbf16>
}
