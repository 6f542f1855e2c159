// RUN: xlac opt --pass fusion %s | xlac verify -
// RUN: xlac run %s
// A cheap constant read by more than 64 fusions: the zero that starts 65
// row sums (the gradient of a two-layer transformer reads its zero in about
// as many).  Fusion copies such a producer into every group that reads it
// and erases the original, so every group must get its copy; a group left
// without one read the erased constant, which has no buffer (a null
// pointer in the compiled reduction; printed, an operand that does not
// verify).  Row i of x holds i, so its sum is 16 * i; the optimization
// barrier keeps the sums from being folded.

func.func @main() {
  %i = stablehlo.iota dim = 0 : tensor<65x16xi32>
  %x0 = stablehlo.convert %i : (tensor<65x16xi32>) -> tensor<65x16xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<65x16xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s0 = stablehlo.slice %x [0:1, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r0 = stablehlo.reduce(%s0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s1 = stablehlo.slice %x [1:2, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r1 = stablehlo.reduce(%s1 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s2 = stablehlo.slice %x [2:3, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r2 = stablehlo.reduce(%s2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s3 = stablehlo.slice %x [3:4, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r3 = stablehlo.reduce(%s3 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s4 = stablehlo.slice %x [4:5, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r4 = stablehlo.reduce(%s4 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s5 = stablehlo.slice %x [5:6, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r5 = stablehlo.reduce(%s5 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s6 = stablehlo.slice %x [6:7, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r6 = stablehlo.reduce(%s6 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s7 = stablehlo.slice %x [7:8, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r7 = stablehlo.reduce(%s7 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s8 = stablehlo.slice %x [8:9, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r8 = stablehlo.reduce(%s8 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s9 = stablehlo.slice %x [9:10, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r9 = stablehlo.reduce(%s9 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s10 = stablehlo.slice %x [10:11, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r10 = stablehlo.reduce(%s10 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s11 = stablehlo.slice %x [11:12, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r11 = stablehlo.reduce(%s11 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s12 = stablehlo.slice %x [12:13, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r12 = stablehlo.reduce(%s12 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s13 = stablehlo.slice %x [13:14, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r13 = stablehlo.reduce(%s13 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s14 = stablehlo.slice %x [14:15, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r14 = stablehlo.reduce(%s14 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s15 = stablehlo.slice %x [15:16, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r15 = stablehlo.reduce(%s15 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s16 = stablehlo.slice %x [16:17, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r16 = stablehlo.reduce(%s16 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s17 = stablehlo.slice %x [17:18, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r17 = stablehlo.reduce(%s17 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s18 = stablehlo.slice %x [18:19, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r18 = stablehlo.reduce(%s18 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s19 = stablehlo.slice %x [19:20, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r19 = stablehlo.reduce(%s19 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s20 = stablehlo.slice %x [20:21, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r20 = stablehlo.reduce(%s20 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s21 = stablehlo.slice %x [21:22, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r21 = stablehlo.reduce(%s21 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s22 = stablehlo.slice %x [22:23, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r22 = stablehlo.reduce(%s22 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s23 = stablehlo.slice %x [23:24, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r23 = stablehlo.reduce(%s23 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s24 = stablehlo.slice %x [24:25, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r24 = stablehlo.reduce(%s24 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s25 = stablehlo.slice %x [25:26, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r25 = stablehlo.reduce(%s25 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s26 = stablehlo.slice %x [26:27, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r26 = stablehlo.reduce(%s26 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s27 = stablehlo.slice %x [27:28, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r27 = stablehlo.reduce(%s27 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s28 = stablehlo.slice %x [28:29, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r28 = stablehlo.reduce(%s28 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s29 = stablehlo.slice %x [29:30, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r29 = stablehlo.reduce(%s29 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s30 = stablehlo.slice %x [30:31, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r30 = stablehlo.reduce(%s30 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s31 = stablehlo.slice %x [31:32, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r31 = stablehlo.reduce(%s31 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s32 = stablehlo.slice %x [32:33, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r32 = stablehlo.reduce(%s32 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s33 = stablehlo.slice %x [33:34, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r33 = stablehlo.reduce(%s33 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s34 = stablehlo.slice %x [34:35, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r34 = stablehlo.reduce(%s34 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s35 = stablehlo.slice %x [35:36, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r35 = stablehlo.reduce(%s35 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s36 = stablehlo.slice %x [36:37, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r36 = stablehlo.reduce(%s36 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s37 = stablehlo.slice %x [37:38, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r37 = stablehlo.reduce(%s37 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s38 = stablehlo.slice %x [38:39, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r38 = stablehlo.reduce(%s38 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s39 = stablehlo.slice %x [39:40, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r39 = stablehlo.reduce(%s39 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s40 = stablehlo.slice %x [40:41, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r40 = stablehlo.reduce(%s40 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s41 = stablehlo.slice %x [41:42, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r41 = stablehlo.reduce(%s41 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s42 = stablehlo.slice %x [42:43, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r42 = stablehlo.reduce(%s42 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s43 = stablehlo.slice %x [43:44, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r43 = stablehlo.reduce(%s43 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s44 = stablehlo.slice %x [44:45, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r44 = stablehlo.reduce(%s44 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s45 = stablehlo.slice %x [45:46, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r45 = stablehlo.reduce(%s45 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s46 = stablehlo.slice %x [46:47, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r46 = stablehlo.reduce(%s46 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s47 = stablehlo.slice %x [47:48, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r47 = stablehlo.reduce(%s47 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s48 = stablehlo.slice %x [48:49, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r48 = stablehlo.reduce(%s48 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s49 = stablehlo.slice %x [49:50, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r49 = stablehlo.reduce(%s49 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s50 = stablehlo.slice %x [50:51, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r50 = stablehlo.reduce(%s50 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s51 = stablehlo.slice %x [51:52, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r51 = stablehlo.reduce(%s51 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s52 = stablehlo.slice %x [52:53, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r52 = stablehlo.reduce(%s52 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s53 = stablehlo.slice %x [53:54, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r53 = stablehlo.reduce(%s53 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s54 = stablehlo.slice %x [54:55, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r54 = stablehlo.reduce(%s54 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s55 = stablehlo.slice %x [55:56, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r55 = stablehlo.reduce(%s55 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s56 = stablehlo.slice %x [56:57, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r56 = stablehlo.reduce(%s56 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s57 = stablehlo.slice %x [57:58, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r57 = stablehlo.reduce(%s57 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s58 = stablehlo.slice %x [58:59, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r58 = stablehlo.reduce(%s58 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s59 = stablehlo.slice %x [59:60, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r59 = stablehlo.reduce(%s59 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s60 = stablehlo.slice %x [60:61, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r60 = stablehlo.reduce(%s60 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s61 = stablehlo.slice %x [61:62, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r61 = stablehlo.reduce(%s61 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s62 = stablehlo.slice %x [62:63, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r62 = stablehlo.reduce(%s62 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s63 = stablehlo.slice %x [63:64, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r63 = stablehlo.reduce(%s63 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %s64 = stablehlo.slice %x [64:65, 0:16] : (tensor<65x16xf32>) -> tensor<1x16xf32>
  %r64 = stablehlo.reduce(%s64 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
  %c0 = stablehlo.concatenate %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>
  %c1 = stablehlo.concatenate %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>
  %c2 = stablehlo.concatenate %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>
  %c3 = stablehlo.concatenate %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16xf32>
  %c = stablehlo.concatenate %c0, %c1, %c2, %c3, %r64, dim = 0 : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>) -> tensor<65xf32>
  check.expect_eq_const %c, dense<[0.0, 16.0, 32.0, 48.0, 64.0, 80.0, 96.0, 112.0, 128.0, 144.0, 160.0, 176.0, 192.0, 208.0, 224.0, 240.0, 256.0, 272.0, 288.0, 304.0, 320.0, 336.0, 352.0, 368.0, 384.0, 400.0, 416.0, 432.0, 448.0, 464.0, 480.0, 496.0, 512.0, 528.0, 544.0, 560.0, 576.0, 592.0, 608.0, 624.0, 640.0, 656.0, 672.0, 688.0, 704.0, 720.0, 736.0, 752.0, 768.0, 784.0, 800.0, 816.0, 832.0, 848.0, 864.0, 880.0, 896.0, 912.0, 928.0, 944.0, 960.0, 976.0, 992.0, 1008.0, 1024.0]> : tensor<65xf32>
  func.return
}
