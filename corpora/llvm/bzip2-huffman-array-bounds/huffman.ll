; ModuleID = 'huffman.c'
source_filename = "huffman.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local void @BZ2_hbMakeCodeLengths(i8* nocapture noundef writeonly %len, i32* nocapture noundef readonly %freq, i32 noundef %alphaSize, i32 noundef %maxLen) local_unnamed_addr #0 {
entry:
  %heap = alloca [260 x i32], align 16
  %weight = alloca [516 x i32], align 16
  %parent = alloca [516 x i32], align 16
  %0 = bitcast [260 x i32]* %heap to i8*
  call void @llvm.lifetime.start.p0i8(i64 1040, i8* nonnull %0) #5
  %1 = bitcast [516 x i32]* %weight to i8*
  call void @llvm.lifetime.start.p0i8(i64 2064, i8* nonnull %1) #5
  %2 = bitcast [516 x i32]* %parent to i8*
  call void @llvm.lifetime.start.p0i8(i64 2064, i8* nonnull %2) #5
  %cmp342 = icmp sgt i32 %alphaSize, 0
  br i1 %cmp342, label %for.body.preheader, label %while.cond.preheader

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %alphaSize to i64
  br label %for.body

while.cond.preheader:                             ; preds = %for.body, %entry
  %arrayidx6 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 0
  %arrayidx7 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 0
  %arrayidx8 = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 0
  %cmp10.not350 = icmp slt i32 %alphaSize, 1
  %arrayidx43 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 1
  %cmp198.not376 = icmp slt i32 %alphaSize, 1
  %cmp221.not380 = icmp slt i32 %alphaSize, 1
  %scevgep = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 1
  %scevgep383 = bitcast i32* %scevgep to i8*
  %3 = zext i32 %alphaSize to i64
  %4 = shl nuw nsw i64 %3, 2
  %5 = sext i32 %alphaSize to i64
  %6 = add i32 %alphaSize, 1
  %wide.trip.count391 = zext i32 %alphaSize to i64
  %wide.trip.count404 = zext i32 %6 to i64
  %wide.trip.count409 = zext i32 %6 to i64
  br label %while.cond

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr inbounds i32, i32* %freq, i64 %indvars.iv
  %7 = load i32, i32* %arrayidx, align 4, !tbaa !5
  %cmp1 = icmp eq i32 %7, 0
  %.op = shl i32 %7, 8
  %shl = select i1 %cmp1, i32 256, i32 %.op
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %arrayidx5 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %indvars.iv.next
  store i32 %shl, i32* %arrayidx5, align 4, !tbaa !5
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %while.cond.preheader, label %for.body, !llvm.loop !9

while.cond:                                       ; preds = %while.cond.backedge, %while.cond.preheader
  store i32 0, i32* %arrayidx6, align 16, !tbaa !5
  store i32 0, i32* %arrayidx7, align 16, !tbaa !5
  store i32 -2, i32* %arrayidx8, align 16, !tbaa !5
  br i1 %cmp10.not350, label %for.end38, label %for.body11.preheader

for.body11.preheader:                             ; preds = %while.cond
  call void @llvm.memset.p0i8.i64(i8* nonnull align 4 %scevgep383, i8 -1, i64 %4, i1 false), !tbaa !5
  br label %for.body11

for.body11:                                       ; preds = %for.body11.preheader, %while.end
  %indvars.iv386 = phi i64 [ 1, %for.body11.preheader ], [ %indvars.iv.next387, %while.end ]
  %indvars.iv384 = phi i64 [ 0, %for.body11.preheader ], [ %indvars.iv.next385, %while.end ]
  %indvars.iv.next385 = add nuw nsw i64 %indvars.iv384, 1
  %arrayidx16 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %indvars.iv.next385
  %8 = trunc i64 %indvars.iv386 to i32
  store i32 %8, i32* %arrayidx16, align 4, !tbaa !5
  %arrayidx21 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %indvars.iv386
  %9 = load i32, i32* %arrayidx21, align 4, !tbaa !5
  %10 = trunc i64 %indvars.iv.next385 to i32
  %11 = lshr i32 %10, 1
  %idxprom22344 = zext i32 %11 to i64
  %arrayidx23345 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom22344
  %12 = load i32, i32* %arrayidx23345, align 4, !tbaa !5
  %idxprom24346 = sext i32 %12 to i64
  %arrayidx25347 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom24346
  %13 = load i32, i32* %arrayidx25347, align 4, !tbaa !5
  %cmp26348 = icmp slt i32 %9, %13
  %14 = trunc i64 %indvars.iv.next385 to i32
  br i1 %cmp26348, label %while.body27.preheader, label %while.end

while.body27.preheader:                           ; preds = %for.body11
  %15 = trunc i64 %indvars.iv.next385 to i32
  br label %while.body27

while.body27:                                     ; preds = %while.body27.preheader, %while.body27
  %16 = phi i32 [ %19, %while.body27 ], [ %12, %while.body27.preheader ]
  %17 = phi i32 [ %18, %while.body27 ], [ %11, %while.body27.preheader ]
  %zz.0349 = phi i32 [ %17, %while.body27 ], [ %15, %while.body27.preheader ]
  %idxprom31 = zext i32 %zz.0349 to i64
  %arrayidx32 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom31
  store i32 %16, i32* %arrayidx32, align 4, !tbaa !5
  %18 = lshr i32 %17, 1
  %idxprom22 = zext i32 %18 to i64
  %arrayidx23 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom22
  %19 = load i32, i32* %arrayidx23, align 4, !tbaa !5
  %idxprom24 = sext i32 %19 to i64
  %arrayidx25 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom24
  %20 = load i32, i32* %arrayidx25, align 4, !tbaa !5
  %cmp26 = icmp slt i32 %9, %20
  br i1 %cmp26, label %while.body27, label %while.end, !llvm.loop !12

while.end:                                        ; preds = %while.body27, %for.body11
  %zz.0.lcssa = phi i32 [ %14, %for.body11 ], [ %17, %while.body27 ]
  %idxprom34 = zext i32 %zz.0.lcssa to i64
  %arrayidx35 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom34
  %21 = trunc i64 %indvars.iv386 to i32
  store i32 %21, i32* %arrayidx35, align 4, !tbaa !5
  %indvars.iv.next387 = add nuw nsw i64 %indvars.iv386, 1
  %exitcond392.not = icmp eq i64 %indvars.iv.next385, %wide.trip.count391
  br i1 %exitcond392.not, label %for.end38.loopexit, label %for.body11, !llvm.loop !13

for.end38.loopexit:                               ; preds = %while.end
  %22 = trunc i64 %indvars.iv.next385 to i32
  br label %for.end38

for.end38:                                        ; preds = %for.end38.loopexit, %while.cond
  %nHeap.0.lcssa = phi i32 [ 0, %while.cond ], [ %22, %for.end38.loopexit ]
  %cmp39 = icmp ult i32 %nHeap.0.lcssa, 260
  br i1 %cmp39, label %if.end, label %if.then

if.then:                                          ; preds = %for.end38
  call void @BZ2_bz__AssertH__fail(i32 noundef 2001) #5
  br label %if.end

if.end:                                           ; preds = %if.then, %for.end38
  %cmp41372 = icmp sgt i32 %nHeap.0.lcssa, 1
  br i1 %cmp41372, label %while.body42.preheader, label %while.end193

while.body42.preheader:                           ; preds = %if.end
  %23 = zext i32 %nHeap.0.lcssa to i64
  br label %while.body42

while.body42:                                     ; preds = %while.body42.preheader, %while.end190
  %indvars.iv395 = phi i64 [ %23, %while.body42.preheader ], [ %indvars.iv.next396, %while.end190 ]
  %indvars.iv393 = phi i64 [ %5, %while.body42.preheader ], [ %indvars.iv.next394, %while.end190 ]
  %24 = load i32, i32* %arrayidx43, align 4, !tbaa !5
  %arrayidx45 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %indvars.iv395
  %25 = load i32, i32* %arrayidx45, align 4, !tbaa !5
  store i32 %25, i32* %arrayidx43, align 4, !tbaa !5
  %indvars.iv.next396 = add nsw i64 %indvars.iv395, -1
  %cmp54.not354 = icmp sgt i64 %indvars.iv395, 2
  br i1 %cmp54.not354, label %if.end56.lr.ph, label %while.end84

if.end56.lr.ph:                                   ; preds = %while.body42
  %idxprom71 = sext i32 %25 to i64
  %arrayidx72 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom71
  %26 = load i32, i32* %arrayidx72, align 4, !tbaa !5
  br label %if.end56

if.end56:                                         ; preds = %if.end56.lr.ph, %if.end79
  %shl53356 = phi i32 [ 2, %if.end56.lr.ph ], [ %shl53, %if.end79 ]
  %zz47.0355 = phi i32 [ 1, %if.end56.lr.ph ], [ %yy.0, %if.end79 ]
  %27 = sext i32 %shl53356 to i64
  %cmp57 = icmp sgt i64 %indvars.iv.next396, %27
  br i1 %cmp57, label %land.lhs.true, label %if.end70

land.lhs.true:                                    ; preds = %if.end56
  %add58 = or i32 %shl53356, 1
  %idxprom59 = sext i32 %add58 to i64
  %arrayidx60 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom59
  %28 = load i32, i32* %arrayidx60, align 4, !tbaa !5
  %idxprom61 = sext i32 %28 to i64
  %arrayidx62 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom61
  %29 = load i32, i32* %arrayidx62, align 4, !tbaa !5
  %idxprom63 = sext i32 %shl53356 to i64
  %arrayidx64 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom63
  %30 = load i32, i32* %arrayidx64, align 8, !tbaa !5
  %idxprom65 = sext i32 %30 to i64
  %arrayidx66 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom65
  %31 = load i32, i32* %arrayidx66, align 4, !tbaa !5
  %cmp67 = icmp slt i32 %29, %31
  %spec.select339 = select i1 %cmp67, i32 %add58, i32 %shl53356
  br label %if.end70

if.end70:                                         ; preds = %land.lhs.true, %if.end56
  %yy.0 = phi i32 [ %shl53356, %if.end56 ], [ %spec.select339, %land.lhs.true ]
  %idxprom73 = sext i32 %yy.0 to i64
  %arrayidx74 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom73
  %32 = load i32, i32* %arrayidx74, align 4, !tbaa !5
  %idxprom75 = sext i32 %32 to i64
  %arrayidx76 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom75
  %33 = load i32, i32* %arrayidx76, align 4, !tbaa !5
  %cmp77 = icmp slt i32 %26, %33
  br i1 %cmp77, label %while.end84, label %if.end79

if.end79:                                         ; preds = %if.end70
  %idxprom82 = sext i32 %zz47.0355 to i64
  %arrayidx83 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom82
  store i32 %32, i32* %arrayidx83, align 4, !tbaa !5
  %shl53 = shl i32 %yy.0, 1
  %34 = sext i32 %shl53 to i64
  %cmp54.not = icmp sgt i64 %indvars.iv395, %34
  br i1 %cmp54.not, label %if.end56, label %while.end84, !llvm.loop !14

while.end84:                                      ; preds = %if.end79, %if.end70, %while.body42
  %zz47.0.lcssa = phi i32 [ 1, %while.body42 ], [ %yy.0, %if.end79 ], [ %zz47.0355, %if.end70 ]
  %idxprom85 = sext i32 %zz47.0.lcssa to i64
  %arrayidx86 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom85
  store i32 %25, i32* %arrayidx86, align 4, !tbaa !5
  %35 = load i32, i32* %arrayidx43, align 4, !tbaa !5
  %arrayidx89 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %indvars.iv.next396
  %36 = load i32, i32* %arrayidx89, align 4, !tbaa !5
  store i32 %36, i32* %arrayidx43, align 4, !tbaa !5
  %37 = add nsw i64 %indvars.iv395, -2
  %cmp100359 = icmp slt i64 %indvars.iv395, 4
  br i1 %cmp100359, label %while.end131, label %if.end102.lr.ph

if.end102.lr.ph:                                  ; preds = %while.end84
  %idxprom118 = sext i32 %36 to i64
  %arrayidx119 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom118
  %38 = load i32, i32* %arrayidx119, align 4, !tbaa !5
  br label %if.end102

if.end102:                                        ; preds = %if.end102.lr.ph, %if.end126
  %shl99361 = phi i32 [ 2, %if.end102.lr.ph ], [ %shl99, %if.end126 ]
  %zz92.0360 = phi i32 [ 1, %if.end102.lr.ph ], [ %yy93.0, %if.end126 ]
  %39 = sext i32 %shl99361 to i64
  %cmp103 = icmp sgt i64 %37, %39
  br i1 %cmp103, label %land.lhs.true104, label %if.end117

land.lhs.true104:                                 ; preds = %if.end102
  %add105 = or i32 %shl99361, 1
  %idxprom106 = sext i32 %add105 to i64
  %arrayidx107 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom106
  %40 = load i32, i32* %arrayidx107, align 4, !tbaa !5
  %idxprom108 = sext i32 %40 to i64
  %arrayidx109 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom108
  %41 = load i32, i32* %arrayidx109, align 4, !tbaa !5
  %idxprom110 = sext i32 %shl99361 to i64
  %arrayidx111 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom110
  %42 = load i32, i32* %arrayidx111, align 8, !tbaa !5
  %idxprom112 = sext i32 %42 to i64
  %arrayidx113 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom112
  %43 = load i32, i32* %arrayidx113, align 4, !tbaa !5
  %cmp114 = icmp slt i32 %41, %43
  %spec.select340 = select i1 %cmp114, i32 %add105, i32 %shl99361
  br label %if.end117

if.end117:                                        ; preds = %land.lhs.true104, %if.end102
  %yy93.0 = phi i32 [ %shl99361, %if.end102 ], [ %spec.select340, %land.lhs.true104 ]
  %idxprom120 = sext i32 %yy93.0 to i64
  %arrayidx121 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom120
  %44 = load i32, i32* %arrayidx121, align 4, !tbaa !5
  %idxprom122 = sext i32 %44 to i64
  %arrayidx123 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom122
  %45 = load i32, i32* %arrayidx123, align 4, !tbaa !5
  %cmp124 = icmp slt i32 %38, %45
  br i1 %cmp124, label %while.end131, label %if.end126

if.end126:                                        ; preds = %if.end117
  %idxprom129 = sext i32 %zz92.0360 to i64
  %arrayidx130 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom129
  store i32 %44, i32* %arrayidx130, align 4, !tbaa !5
  %shl99 = shl i32 %yy93.0, 1
  %46 = sext i32 %shl99 to i64
  %cmp100 = icmp slt i64 %37, %46
  br i1 %cmp100, label %while.end131, label %if.end102, !llvm.loop !15

while.end131:                                     ; preds = %if.end126, %if.end117, %while.end84
  %zz92.0.lcssa = phi i32 [ 1, %while.end84 ], [ %yy93.0, %if.end126 ], [ %zz92.0360, %if.end117 ]
  %idxprom132 = sext i32 %zz92.0.lcssa to i64
  %arrayidx133 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %idxprom132
  store i32 %36, i32* %arrayidx133, align 4, !tbaa !5
  %indvars.iv.next394 = add nsw i64 %indvars.iv393, 1
  %idxprom135 = sext i32 %35 to i64
  %arrayidx136 = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 %idxprom135
  %47 = trunc i64 %indvars.iv.next394 to i32
  store i32 %47, i32* %arrayidx136, align 4, !tbaa !5
  %idxprom137 = sext i32 %24 to i64
  %arrayidx138 = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 %idxprom137
  %48 = trunc i64 %indvars.iv.next394 to i32
  store i32 %48, i32* %arrayidx138, align 4, !tbaa !5
  %arrayidx140 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom137
  %49 = load i32, i32* %arrayidx140, align 4, !tbaa !5
  %and = and i32 %49, -256
  %arrayidx142 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom135
  %50 = load i32, i32* %arrayidx142, align 4, !tbaa !5
  %and143 = and i32 %50, -256
  %add144 = add i32 %and143, %and
  %and147 = and i32 %49, 255
  %and150 = and i32 %50, 255
  %cmp151 = icmp ugt i32 %and147, %and150
  %and147.and150 = select i1 %cmp151, i32 %and147, i32 %and150
  %add162 = add nuw nsw i32 %and147.and150, 1
  %or = or i32 %add162, %add144
  %arrayidx164 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %indvars.iv.next394
  store i32 %or, i32* %arrayidx164, align 4, !tbaa !5
  %arrayidx166 = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 %indvars.iv.next394
  store i32 -1, i32* %arrayidx166, align 4, !tbaa !5
  %51 = trunc i64 %indvars.iv.next394 to i32
  store i32 %51, i32* %arrayidx89, align 4, !tbaa !5
  %52 = trunc i64 %indvars.iv.next396 to i32
  %shr177364 = ashr i32 %52, 1
  %53 = zext i32 %shr177364 to i64
  %arrayidx179365 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %53
  %54 = load i32, i32* %arrayidx179365, align 4, !tbaa !5
  %idxprom180366 = sext i32 %54 to i64
  %arrayidx181367 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom180366
  %55 = load i32, i32* %arrayidx181367, align 4, !tbaa !5
  %cmp182368 = icmp slt i32 %or, %55
  %56 = trunc i64 %indvars.iv.next396 to i32
  br i1 %cmp182368, label %while.body183.preheader, label %while.end190

while.body183.preheader:                          ; preds = %while.end131
  %57 = trunc i64 %indvars.iv.next396 to i32
  br label %while.body183

while.body183:                                    ; preds = %while.body183.preheader, %while.body183
  %58 = phi i32 [ %61, %while.body183 ], [ %54, %while.body183.preheader ]
  %shr177370 = phi i32 [ %shr177, %while.body183 ], [ %shr177364, %while.body183.preheader ]
  %zz170.0369 = phi i32 [ %shr177370, %while.body183 ], [ %57, %while.body183.preheader ]
  %59 = zext i32 %zz170.0369 to i64
  %arrayidx188 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %59
  store i32 %58, i32* %arrayidx188, align 4, !tbaa !5
  %shr177 = ashr i32 %shr177370, 1
  %60 = zext i32 %shr177 to i64
  %arrayidx179 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %60
  %61 = load i32, i32* %arrayidx179, align 4, !tbaa !5
  %idxprom180 = sext i32 %61 to i64
  %arrayidx181 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %idxprom180
  %62 = load i32, i32* %arrayidx181, align 4, !tbaa !5
  %cmp182 = icmp slt i32 %or, %62
  br i1 %cmp182, label %while.body183, label %while.end190, !llvm.loop !16

while.end190:                                     ; preds = %while.body183, %while.end131
  %zz170.0.lcssa = phi i32 [ %56, %while.end131 ], [ %shr177370, %while.body183 ]
  %63 = zext i32 %zz170.0.lcssa to i64
  %arrayidx192 = getelementptr inbounds [260 x i32], [260 x i32]* %heap, i64 0, i64 %63
  %64 = trunc i64 %indvars.iv.next394 to i32
  store i32 %64, i32* %arrayidx192, align 4, !tbaa !5
  %cmp41 = icmp sgt i64 %indvars.iv395, 2
  br i1 %cmp41, label %while.body42, label %while.end193.loopexit, !llvm.loop !17

while.end193.loopexit:                            ; preds = %while.end190
  %65 = trunc i64 %indvars.iv.next394 to i32
  br label %while.end193

while.end193:                                     ; preds = %while.end193.loopexit, %if.end
  %nNodes.0.lcssa = phi i32 [ %alphaSize, %if.end ], [ %65, %while.end193.loopexit ]
  %cmp194 = icmp slt i32 %nNodes.0.lcssa, 516
  br i1 %cmp194, label %if.end196, label %if.then195

if.then195:                                       ; preds = %while.end193
  call void @BZ2_bz__AssertH__fail(i32 noundef 2002) #5
  br label %if.end196

if.end196:                                        ; preds = %if.then195, %while.end193
  br i1 %cmp198.not376, label %for.end217, label %while.cond200.preheader

while.cond200.preheader:                          ; preds = %if.end196, %while.end208
  %indvars.iv401 = phi i64 [ %indvars.iv.next402, %while.end208 ], [ 1, %if.end196 ]
  %tooLong.0377 = phi i8 [ %spec.select341, %while.end208 ], [ 0, %if.end196 ]
  %66 = trunc i64 %indvars.iv401 to i32
  br label %while.cond200

while.cond200:                                    ; preds = %while.cond200, %while.cond200.preheader
  %k.0 = phi i32 [ %67, %while.cond200 ], [ %66, %while.cond200.preheader ]
  %j.0 = phi i32 [ %inc207, %while.cond200 ], [ 0, %while.cond200.preheader ]
  %idxprom201 = sext i32 %k.0 to i64
  %arrayidx202 = getelementptr inbounds [516 x i32], [516 x i32]* %parent, i64 0, i64 %idxprom201
  %67 = load i32, i32* %arrayidx202, align 4, !tbaa !5
  %cmp203 = icmp sgt i32 %67, -1
  %inc207 = add nuw nsw i32 %j.0, 1
  br i1 %cmp203, label %while.cond200, label %while.end208, !llvm.loop !18

while.end208:                                     ; preds = %while.cond200
  %conv = trunc i32 %j.0 to i8
  %68 = add nsw i64 %indvars.iv401, -1
  %arrayidx210 = getelementptr inbounds i8, i8* %len, i64 %68
  store i8 %conv, i8* %arrayidx210, align 1, !tbaa !19
  %cmp211 = icmp sgt i32 %j.0, %maxLen
  %spec.select341 = select i1 %cmp211, i8 1, i8 %tooLong.0377
  %indvars.iv.next402 = add nuw nsw i64 %indvars.iv401, 1
  %exitcond405.not = icmp eq i64 %indvars.iv.next402, %wide.trip.count404
  br i1 %exitcond405.not, label %for.end217, label %while.cond200.preheader, !llvm.loop !20

for.end217:                                       ; preds = %while.end208, %if.end196
  %tooLong.0.lcssa = phi i8 [ 0, %if.end196 ], [ %spec.select341, %while.end208 ]
  %tobool.not = icmp eq i8 %tooLong.0.lcssa, 0
  br i1 %tobool.not, label %while.end234, label %for.cond220.preheader

for.cond220.preheader:                            ; preds = %for.end217
  br i1 %cmp221.not380, label %while.cond.backedge, label %for.body223

while.cond.backedge:                              ; preds = %for.body223, %for.cond220.preheader
  br label %while.cond, !llvm.loop !21

for.body223:                                      ; preds = %for.cond220.preheader, %for.body223
  %indvars.iv406 = phi i64 [ %indvars.iv.next407, %for.body223 ], [ 1, %for.cond220.preheader ]
  %arrayidx225 = getelementptr inbounds [516 x i32], [516 x i32]* %weight, i64 0, i64 %indvars.iv406
  %69 = load i32, i32* %arrayidx225, align 4, !tbaa !5
  %shr226 = ashr i32 %69, 8
  %div = sdiv i32 %shr226, 2
  %add227 = shl nsw i32 %div, 8
  %shl228 = add nsw i32 %add227, 256
  store i32 %shl228, i32* %arrayidx225, align 4, !tbaa !5
  %indvars.iv.next407 = add nuw nsw i64 %indvars.iv406, 1
  %exitcond410.not = icmp eq i64 %indvars.iv.next407, %wide.trip.count409
  br i1 %exitcond410.not, label %while.cond.backedge, label %for.body223, !llvm.loop !21

while.end234:                                     ; preds = %for.end217
  call void @llvm.lifetime.end.p0i8(i64 2064, i8* nonnull %2) #5
  call void @llvm.lifetime.end.p0i8(i64 2064, i8* nonnull %1) #5
  call void @llvm.lifetime.end.p0i8(i64 1040, i8* nonnull %0) #5
  ret void
}

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1

declare void @BZ2_bz__AssertH__fail(i32 noundef) local_unnamed_addr #2

; Function Attrs: nofree norecurse nosync nounwind uwtable
define dso_local void @BZ2_hbAssignCodes(i32* nocapture noundef writeonly %code, i8* nocapture noundef readonly %length, i32 noundef %minLen, i32 noundef %maxLen, i32 noundef %alphaSize) local_unnamed_addr #3 {
entry:
  %cmp.not25 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp.not25, label %for.end11, label %for.cond1.preheader.lr.ph

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp222 = icmp sgt i32 %alphaSize, 0
  %wide.trip.count = zext i32 %alphaSize to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.end
  %vec.028 = phi i32 [ 0, %for.cond1.preheader.lr.ph ], [ %shl, %for.end ]
  %n.026 = phi i32 [ %minLen, %for.cond1.preheader.lr.ph ], [ %inc10, %for.end ]
  br i1 %cmp222, label %for.body3, label %for.end

for.body3:                                        ; preds = %for.cond1.preheader, %for.inc
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.inc ], [ 0, %for.cond1.preheader ]
  %vec.123 = phi i32 [ %vec.2, %for.inc ], [ %vec.028, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds i8, i8* %length, i64 %indvars.iv
  %0 = load i8, i8* %arrayidx, align 1, !tbaa !19
  %conv = zext i8 %0 to i32
  %cmp4 = icmp eq i32 %n.026, %conv
  br i1 %cmp4, label %if.then, label %for.inc

if.then:                                          ; preds = %for.body3
  %arrayidx7 = getelementptr inbounds i32, i32* %code, i64 %indvars.iv
  store i32 %vec.123, i32* %arrayidx7, align 4, !tbaa !5
  %inc = add nsw i32 %vec.123, 1
  br label %for.inc

for.inc:                                          ; preds = %for.body3, %if.then
  %vec.2 = phi i32 [ %inc, %if.then ], [ %vec.123, %for.body3 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %for.body3, !llvm.loop !22

for.end:                                          ; preds = %for.inc, %for.cond1.preheader
  %vec.1.lcssa = phi i32 [ %vec.028, %for.cond1.preheader ], [ %vec.2, %for.inc ]
  %shl = shl i32 %vec.1.lcssa, 1
  %inc10 = add i32 %n.026, 1
  %exitcond30.not = icmp eq i32 %n.026, %maxLen
  br i1 %exitcond30.not, label %for.end11, label %for.cond1.preheader, !llvm.loop !23

for.end11:                                        ; preds = %for.end, %entry
  ret void
}

; Function Attrs: nofree norecurse nosync nounwind uwtable
define dso_local void @BZ2_hbCreateDecodeTables(i32* nocapture noundef %limit, i32* nocapture noundef %base, i32* nocapture noundef writeonly %perm, i8* nocapture noundef readonly %length, i32 noundef %minLen, i32 noundef %maxLen, i32 noundef %alphaSize) local_unnamed_addr #3 {
entry:
  %base162 = bitcast i32* %base to i8*
  %limit176 = bitcast i32* %limit to i8*
  %cmp.not144 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp.not144, label %for.cond12.preheader, label %for.cond1.preheader.lr.ph

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp2140 = icmp sgt i32 %alphaSize, 0
  %wide.trip.count = zext i32 %alphaSize to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.inc9
  %i.0146 = phi i32 [ %minLen, %for.cond1.preheader.lr.ph ], [ %inc10, %for.inc9 ]
  %pp.0145 = phi i32 [ 0, %for.cond1.preheader.lr.ph ], [ %pp.1.lcssa, %for.inc9 ]
  br i1 %cmp2140, label %for.body3, label %for.inc9

for.cond12.preheader:                             ; preds = %for.inc9, %entry
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(92) %base162, i8 0, i64 92, i1 false), !tbaa !5
  %cmp22149 = icmp sgt i32 %alphaSize, 0
  br i1 %cmp22149, label %for.body24.preheader, label %for.cond34.preheader

for.body3:                                        ; preds = %for.cond1.preheader, %for.inc
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.inc ], [ 0, %for.cond1.preheader ]
  %pp.1141 = phi i32 [ %pp.2, %for.inc ], [ %pp.0145, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds i8, i8* %length, i64 %indvars.iv
  %0 = load i8, i8* %arrayidx, align 1, !tbaa !19
  %conv = zext i8 %0 to i32
  %cmp4 = icmp eq i32 %i.0146, %conv
  br i1 %cmp4, label %if.then, label %for.inc

if.then:                                          ; preds = %for.body3
  %idxprom6 = sext i32 %pp.1141 to i64
  %arrayidx7 = getelementptr inbounds i32, i32* %perm, i64 %idxprom6
  %1 = trunc i64 %indvars.iv to i32
  store i32 %1, i32* %arrayidx7, align 4, !tbaa !5
  %inc = add nsw i32 %pp.1141, 1
  br label %for.inc

for.inc:                                          ; preds = %for.body3, %if.then
  %pp.2 = phi i32 [ %inc, %if.then ], [ %pp.1141, %for.body3 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.inc9, label %for.body3, !llvm.loop !24

for.inc9:                                         ; preds = %for.inc, %for.cond1.preheader
  %pp.1.lcssa = phi i32 [ %pp.0145, %for.cond1.preheader ], [ %pp.2, %for.inc ]
  %inc10 = add i32 %i.0146, 1
  %exitcond161.not = icmp eq i32 %i.0146, %maxLen
  br i1 %exitcond161.not, label %for.cond12.preheader, label %for.cond1.preheader, !llvm.loop !25

for.body24.preheader:                             ; preds = %for.cond12.preheader
  %wide.trip.count169 = zext i32 %alphaSize to i64
  br label %for.body24

for.cond34.preheader:                             ; preds = %for.body24, %for.cond12.preheader
  %load_initial = load i32, i32* %base, align 4
  br label %for.body37

for.body24:                                       ; preds = %for.body24.preheader, %for.body24
  %indvars.iv166 = phi i64 [ 0, %for.body24.preheader ], [ %indvars.iv.next167, %for.body24 ]
  %arrayidx26 = getelementptr inbounds i8, i8* %length, i64 %indvars.iv166
  %2 = load i8, i8* %arrayidx26, align 1, !tbaa !19
  %conv27 = zext i8 %2 to i64
  %add = add nuw nsw i64 %conv27, 1
  %arrayidx29 = getelementptr inbounds i32, i32* %base, i64 %add
  %3 = load i32, i32* %arrayidx29, align 4, !tbaa !5
  %inc30 = add nsw i32 %3, 1
  store i32 %inc30, i32* %arrayidx29, align 4, !tbaa !5
  %indvars.iv.next167 = add nuw nsw i64 %indvars.iv166, 1
  %exitcond170.not = icmp eq i64 %indvars.iv.next167, %wide.trip.count169
  br i1 %exitcond170.not, label %for.cond34.preheader, label %for.body24, !llvm.loop !26

for.body37:                                       ; preds = %for.cond34.preheader, %for.body37
  %store_forwarded = phi i32 [ %load_initial, %for.cond34.preheader ], [ %add42, %for.body37 ]
  %indvars.iv171 = phi i64 [ 1, %for.cond34.preheader ], [ %indvars.iv.next172, %for.body37 ]
  %arrayidx41 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv171
  %4 = load i32, i32* %arrayidx41, align 4, !tbaa !5
  %add42 = add nsw i32 %4, %store_forwarded
  store i32 %add42, i32* %arrayidx41, align 4, !tbaa !5
  %indvars.iv.next172 = add nuw nsw i64 %indvars.iv171, 1
  %exitcond175.not = icmp eq i64 %indvars.iv.next172, 23
  br i1 %exitcond175.not, label %for.body49.preheader, label %for.body37, !llvm.loop !27

for.body49.preheader:                             ; preds = %for.body37
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(92) %limit176, i8 0, i64 92, i1 false), !tbaa !5
  %cmp56.not153 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp56.not153, label %for.cond73.preheader, label %for.body58.preheader

for.body58.preheader:                             ; preds = %for.body49.preheader
  %5 = sext i32 %minLen to i64
  %6 = add i32 %maxLen, 1
  br label %for.body58

for.cond73.preheader:                             ; preds = %for.body58, %for.body49.preheader
  %cmp74.not.not157 = icmp slt i32 %minLen, %maxLen
  br i1 %cmp74.not.not157, label %for.body76.preheader, label %for.end89

for.body76.preheader:                             ; preds = %for.cond73.preheader
  %7 = sext i32 %minLen to i64
  %wide.trip.count187 = sext i32 %maxLen to i64
  br label %for.body76

for.body58:                                       ; preds = %for.body58.preheader, %for.body58
  %indvars.iv180 = phi i64 [ %5, %for.body58.preheader ], [ %indvars.iv.next181, %for.body58 ]
  %vec.0155 = phi i32 [ 0, %for.body58.preheader ], [ %shl, %for.body58 ]
  %indvars.iv.next181 = add nsw i64 %indvars.iv180, 1
  %arrayidx61 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv.next181
  %8 = load i32, i32* %arrayidx61, align 4, !tbaa !5
  %arrayidx63 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv180
  %9 = load i32, i32* %arrayidx63, align 4, !tbaa !5
  %sub64 = sub nsw i32 %8, %9
  %add65 = add nsw i32 %sub64, %vec.0155
  %sub66 = add nsw i32 %add65, -1
  %arrayidx68 = getelementptr inbounds i32, i32* %limit, i64 %indvars.iv180
  store i32 %sub66, i32* %arrayidx68, align 4, !tbaa !5
  %shl = shl i32 %add65, 1
  %lftr.wideiv = trunc i64 %indvars.iv.next181 to i32
  %exitcond183.not = icmp eq i32 %6, %lftr.wideiv
  br i1 %exitcond183.not, label %for.cond73.preheader, label %for.body58, !llvm.loop !28

for.body76:                                       ; preds = %for.body76.preheader, %for.body76
  %indvars.iv184 = phi i64 [ %7, %for.body76.preheader ], [ %indvars.iv.next185, %for.body76 ]
  %indvars.iv.next185 = add nsw i64 %indvars.iv184, 1
  %arrayidx79 = getelementptr inbounds i32, i32* %limit, i64 %indvars.iv184
  %10 = load i32, i32* %arrayidx79, align 4, !tbaa !5
  %add80 = shl i32 %10, 1
  %shl81 = add i32 %add80, 2
  %arrayidx83 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv.next185
  %11 = load i32, i32* %arrayidx83, align 4, !tbaa !5
  %sub84 = sub i32 %shl81, %11
  store i32 %sub84, i32* %arrayidx83, align 4, !tbaa !5
  %exitcond188.not = icmp eq i64 %indvars.iv.next185, %wide.trip.count187
  br i1 %exitcond188.not, label %for.end89, label %for.body76, !llvm.loop !29

for.end89:                                        ; preds = %for.body76, %for.cond73.preheader
  ret void
}

; Function Attrs: argmemonly nofree nounwind willreturn writeonly
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #4

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { argmemonly mustprogress nofree nosync nounwind willreturn }
attributes #2 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree norecurse nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { argmemonly nofree nounwind willreturn writeonly }
attributes #5 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = distinct !{!9, !10, !11}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.unroll.disable"}
!12 = distinct !{!12, !10, !11}
!13 = distinct !{!13, !10, !11}
!14 = distinct !{!14, !11}
!15 = distinct !{!15, !11}
!16 = distinct !{!16, !10, !11}
!17 = distinct !{!17, !10, !11}
!18 = distinct !{!18, !10, !11}
!19 = !{!7, !7, i64 0}
!20 = distinct !{!20, !10, !11}
!21 = distinct !{!21, !11}
!22 = distinct !{!22, !10, !11}
!23 = distinct !{!23, !10, !11}
!24 = distinct !{!24, !10, !11}
!25 = distinct !{!25, !10, !11}
!26 = distinct !{!26, !10, !11}
!27 = distinct !{!27, !10, !11}
!28 = distinct !{!28, !10, !11}
!29 = distinct !{!29, !10, !11}
