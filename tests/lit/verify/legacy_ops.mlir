// RUN: xlac verify --verify-diagnostics --split-input-file %s
// The legacy and dynamic-variant ops (dynamic_conv, dynamic_gather, einsum,
// unary_einsum, real_dynamic_slice, torch_index_select) are checked like
// the interpreter and the legalize pass read them; sizes held in operands
// are checked only when those operands are constants.

func.func @dynamic_conv_ok(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>, %p: tensor<1x2xi64>) -> tensor<1x1x7xf32> {
  // padding unknown: the spatial size is not checked
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x7xf32>
  %c = stablehlo.constant dense<[[-1, 1]]> : tensor<1x2xi64>
  %s = "stablehlo.dynamic_conv"(%x, %w, %c) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x7xf32>
}

// -----

func.func @dynamic_conv_padding_count(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>, %p: tensor<3xi64>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{padding operand must have shape [1, 2], got tensor<3xi64>}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x4xf32>
}

// -----

func.func @dynamic_conv_padding_type(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>, %p: tensor<1x2xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{operand #2 must be a tensor of signed integer or unsigned integer type}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x4xf32>
}

// -----

func.func @dynamic_conv_const_padding_shape(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x1x4xf32> {
  %p = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi64>
  // expected-error @+1 {{inferred shape [1, 1, 6] is incompatible with result type tensor<1x1x4xf32>}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x4xf32>
}

// -----

func.func @dynamic_conv_features(%x: tensor<1x2x5xf32>, %w: tensor<1x1x2xf32>, %p: tensor<1x2xi64>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{kernel input feature dimension (1) must equal input feature dimension / feature_group_count (2)}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>
  } : (tensor<1x2x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x4xf32>
}

// -----

func.func @dynamic_conv_operands(%x: tensor<1x1x5xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{expects 3 operands, got 2}}
  %r = "stablehlo.dynamic_conv"(%x, %w) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
  func.return %r : tensor<1x1x4xf32>
}

// -----

func.func @dynamic_gather_ok(%x: tensor<4xi1>, %i: tensor<2x1xi32>, %s: tensor<1xi32>) -> tensor<2x2xi1> {
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x2xi1>
  %c = stablehlo.constant dense<[3]> : tensor<1xi32>
  %q = "stablehlo.dynamic_gather"(%x, %i, %c) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x3xi1>
  func.return %r : tensor<2x2xi1>
}

// -----

func.func @dynamic_gather_sizes_count(%x: tensor<4xi1>, %i: tensor<2x1xi32>, %s: tensor<2xi32>) -> tensor<2x2xi1> {
  // expected-error @+1 {{slice_sizes operand must have 1 elements, got tensor<2xi32>}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi1>
  func.return %r : tensor<2x2xi1>
}

// -----

func.func @dynamic_gather_sizes_type(%x: tensor<4xi1>, %i: tensor<2x1xi32>, %s: tensor<1xf32>) -> tensor<2x2xi1> {
  // expected-error @+1 {{operand #2 must be a tensor of signed integer or unsigned integer type}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xf32>) -> tensor<2x2xi1>
  func.return %r : tensor<2x2xi1>
}

// -----

func.func @dynamic_gather_const_size_range(%x: tensor<4xi1>, %i: tensor<2x1xi32>) -> tensor<2x5xi1> {
  %s = stablehlo.constant dense<[5]> : tensor<1xi32>
  // expected-error @+1 {{slice size 5 of dimension 0 is out of range [0, 4]}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x5xi1>
  func.return %r : tensor<2x5xi1>
}

// -----

func.func @dynamic_gather_const_size_shape(%x: tensor<4xi1>, %i: tensor<2x1xi32>) -> tensor<2x2xi1> {
  %s = stablehlo.constant dense<[3]> : tensor<1xi32>
  // expected-error @+1 {{inferred shape [2, 3] is incompatible with result type tensor<2x2xi1>}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x2xi1>
  func.return %r : tensor<2x2xi1>
}

// -----

func.func @dynamic_gather_implied_size(%x: tensor<4xi1>, %i: tensor<2x1xi32>, %s: tensor<1xi32>) -> tensor<2x5xi1> {
  // expected-error @+1 {{slice size 5 of dimension 0 (implied by the result type) is out of range [0, 4]}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x5xi1>
  func.return %r : tensor<2x5xi1>
}

// -----

func.func @dynamic_gather_batch_shape(%x: tensor<4xi1>, %i: tensor<2x1xi32>, %s: tensor<1xi32>) -> tensor<3x2xi1> {
  // expected-error @+1 {{inferred shape [2, 2] is incompatible with result type tensor<3x2xi1>}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<3x2xi1>
  func.return %r : tensor<3x2xi1>
}

// -----

func.func @einsum_ok(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %d: tensor<2x2xi32>) -> tensor<2x3xf32> {
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk->ki"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<2x3xf32>
  %t = "stablehlo.unary_einsum"(%d) {einsum_config = "ii->i"} : (tensor<2x2xi32>) -> tensor<2xi32>
  %s = "stablehlo.unary_einsum"(%d) {einsum_config = "ij->"} : (tensor<2x2xi32>) -> tensor<i32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @einsum_missing_config(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{requires a string attribute 'einsum_config'}}
  %r = "stablehlo.einsum"(%a, %b) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @einsum_no_arrow(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{einsum_config 'ij,jk' has no '->'}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @einsum_term_count(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{einsum_config 'ij->ij' has 1 input term, the op has 2 operands}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij->ij"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @unary_einsum_too_many_terms(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{einsum_config 'ij,jk,kl->ij' has too many inputs}}
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "ij,jk,kl->ij"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @unary_einsum_rank(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{einsum_config term 'ij' has 2 letters for result type tensor<2xi32>}}
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "i->ij"} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @einsum_character(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{einsum_config 'i1,1k->ik' has unsupported character '1'}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "i1,1k->ik"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @einsum_result_letter(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{einsum_config result letter 'z' is in no input term}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk->iz"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @einsum_result_repeated(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{einsum_config result letter 'i' is repeated}}
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "ij->ii"} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// -----

func.func @einsum_sizes(%a: tensor<3x4xf32>, %b: tensor<5x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{einsum letter 'j' has inconsistent sizes 4 and 5}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk->ik"} : (tensor<3x4xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @einsum_result_size(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{einsum letter 'k' has inconsistent sizes 2 and 3}}
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk->ik"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// -----

func.func @real_dynamic_slice_ok(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3xui8> {
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  %a = stablehlo.constant dense<[1]> : tensor<1xi64>
  %b = stablehlo.constant dense<[6]> : tensor<1xi64>
  %c = stablehlo.constant dense<[2]> : tensor<1xi64>
  %q = "stablehlo.real_dynamic_slice"(%x, %a, %b, %c) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  // start past limit: empty
  %e = "stablehlo.real_dynamic_slice"(%x, %b, %a, %c) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_count(%x: tensor<6xui8>, %s: tensor<2xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3xui8> {
  // expected-error @+1 {{start_indices must have 1 elements, got tensor<2xi64>}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_type(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xf32>, %t: tensor<1xi64>) -> tensor<3xui8> {
  // expected-error @+1 {{operand #2 must be a tensor of signed integer or unsigned integer type}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xf32>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_operands(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>) -> tensor<3xui8> {
  // expected-error @+1 {{expects 4 operands, got 3}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_rank(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3x1xui8> {
  // expected-error @+1 {{result rank must be 1, got tensor<3x1xui8>}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x1xui8>
  func.return %r : tensor<3x1xui8>
}

// -----

func.func @real_dynamic_slice_elem(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3xi8> {
  // expected-error @+1 {{requires the same element type for operand and result}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi8>
  func.return %r : tensor<3xi8>
}

// -----

func.func @real_dynamic_slice_too_big(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<7xui8> {
  // expected-error @+1 {{result dimension 0 of size 7 is larger than the operand's (6)}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<7xui8>
  func.return %r : tensor<7xui8>
}

// -----

func.func @real_dynamic_slice_start(%x: tensor<6xui8>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3xui8> {
  %s = stablehlo.constant dense<[-1]> : tensor<1xi64>
  // expected-error @+1 {{start index -1 of dimension 0 is negative}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_limit(%x: tensor<6xui8>, %s: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<3xui8> {
  %l = stablehlo.constant dense<[7]> : tensor<1xi64>
  // expected-error @+1 {{limit index 7 of dimension 0 exceeds its size 6}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_stride(%x: tensor<6xui8>, %s: tensor<1xi64>, %l: tensor<1xi64>) -> tensor<3xui8> {
  %t = stablehlo.constant dense<[0]> : tensor<1xi64>
  // expected-error @+1 {{stride 0 of dimension 0 must be positive}}
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %t) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}

// -----

func.func @real_dynamic_slice_shape(%x: tensor<6xui8>) -> tensor<2xui8> {
  %a = stablehlo.constant dense<[1]> : tensor<1xi64>
  %b = stablehlo.constant dense<[6]> : tensor<1xi64>
  %c = stablehlo.constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{inferred shape [3] is incompatible with result type tensor<2xui8>}}
  %r = "stablehlo.real_dynamic_slice"(%x, %a, %b, %c) : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xui8>
  func.return %r : tensor<2xui8>
}

// -----

func.func @torch_index_select_ok(%x: tensor<2x3xi32>, %i: tensor<4xi32>, %j: tensor<2x5xui8>) -> tensor<2x4xi32> {
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  %n = "stablehlo.torch_index_select"(%x, %i) {dim = -2 : i64} : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  %b = "stablehlo.torch_index_select"(%x, %j) {dim = 1 : i64, batch_dims = 1 : i64} : (tensor<2x3xi32>, tensor<2x5xui8>) -> tensor<2x5xi32>
  func.return %r : tensor<2x4xi32>
}

// -----

func.func @torch_index_select_dim(%x: tensor<2x3xi32>, %i: tensor<4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{dim 2 is out of range for operand rank 2}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 2 : i64} : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  func.return %r : tensor<2x4xi32>
}

// -----

func.func @torch_index_select_batch_dims(%x: tensor<2x3xi32>, %i: tensor<2x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{batch_dims 2 must be in [0, min(dim, index rank)] (dim 1, index rank 2)}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 2 : i64} : (tensor<2x3xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  func.return %r : tensor<2x4xi32>
}

// -----

func.func @torch_index_select_batch_size(%x: tensor<2x3xi32>, %i: tensor<3x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{batch dimension 0 differs in size between operand (2) and index (3)}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 1 : i64} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  func.return %r : tensor<2x4xi32>
}

// -----

func.func @torch_index_select_index_type(%x: tensor<2x3xi32>, %i: tensor<4xf32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{operand #1 must be a tensor of signed integer or unsigned integer type}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64} : (tensor<2x3xi32>, tensor<4xf32>) -> tensor<2x4xi32>
  func.return %r : tensor<2x4xi32>
}

// -----

func.func @torch_index_select_shape(%x: tensor<2x3xi32>, %i: tensor<4xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{inferred shape [2, 4] is incompatible with result type tensor<2x5xi32>}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64} : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x5xi32>
  func.return %r : tensor<2x5xi32>
}

// -----

func.func @torch_index_select_elem(%x: tensor<2x3xi32>, %i: tensor<4xi32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{requires the same element type for operand and result}}
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64} : (tensor<2x3xi32>, tensor<4xi32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
